// The demo releases a first start seeds are real releases for the API: listed current first, and their
// files download with the size and SHA-256 the rows promise; a verified user without a license gets the
// ungated ones and is refused the beta and the entitled one with their codes (issue 25).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDatabase } from '../../../../server/demo/seed.ts';
import { createClient, createUser, login } from '../../../helpers/auth.ts';
import { sha256Hex, type ReleaseView } from '../../../helpers/downloads.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = createTestContext({ env: { ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'a-long-password' } });
  await seedDatabase(ctx);
});
afterAll(() => ctx.cleanup());

describe('seeded demo releases', () => {
  it('download with the size and SHA-256 of their rows', async () => {
    const list = (await (await createClient(ctx.app).request('GET', '/api/downloads/getSections')).json()) as { sections: ReleaseView[] };
    expect(list.sections.length).toBeGreaterThan(0);
    expect(list.sections[0]?.is_current).toBe(1);

    const admin = await login(ctx.app, 'admin@example.com', 'a-long-password');
    await createUser(ctx, { email: 'user@example.com' });
    const user = await login(ctx.app, 'user@example.com');
    for (const release of list.sections) {
      const response = await admin.request('GET', `/api/downloads/file/${release.id}`);
      expect(response.status).toBe(200);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.length).toBe(release.size);
      expect(sha256Hex(bytes)).toBe(release.sha256);
      const asUser = await user.request('GET', `/api/downloads/file/${release.id}`);
      const gated = release.entitlement !== null || release.channel === 'beta';
      expect(asUser.status).toBe(release.downloadable === 1 && !gated ? 200 : 403);
      if (release.downloadable === 1 && gated) expect(((await asUser.json()) as { code: string }).code).toBe('NO_LICENSE');
      else await asUser.arrayBuffer();
      for (const file of release.files) {
        const bytes = Buffer.from(await (await admin.request('GET', file.url)).arrayBuffer());
        expect({ size: bytes.length, sha256: sha256Hex(bytes) }).toEqual({ size: file.size, sha256: file.sha256 });
      }
    }
  });
});
