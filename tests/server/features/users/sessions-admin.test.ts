// The admin's view of a user's sessions (docs/admin-api.md#sessions-of-a-user): GET, DELETE one, DELETE all,
// under /api/admin/users/{id}/sessions. Only admins; an ended session answers 401 on its next request.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUser, login, type TestClient } from '../../../helpers/auth.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';
import { CHROME_LINUX, SAFARI_IPHONE } from '../../../helpers/user-agents.ts';

let ctx: TestContext;
let admin: TestClient;
let annId: number;
beforeEach(async () => {
  ctx = createTestContext({ fakeClock: true });
  await createUser(ctx, { email: 'admin@example.test', role: 'admin' });
  annId = (await createUser(ctx, { email: 'ann@example.test' })).id;
  admin = await login(ctx.app, 'admin@example.test');
});
afterEach(() => ctx.cleanup());

async function sessionsOf(userId: number): Promise<Array<{ id: string; current: boolean; browser: string | null; system: string | null }>> {
  const response = await admin.request('GET', `/api/admin/users/${userId}/sessions`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { sessions: Array<{ id: string; current: boolean; browser: string | null; system: string | null }> }).sessions;
}

describe('admin: sessions of a user', () => {
  it('lists the user’s sessions with browser and system, none of them the admin’s own', async () => {
    await login(ctx.app, 'ann@example.test', undefined, { userAgent: SAFARI_IPHONE });
    await login(ctx.app, 'ann@example.test', undefined, { userAgent: CHROME_LINUX });
    const list = await sessionsOf(annId);
    expect(list.map(({ browser, system, current }) => ({ browser, system, current }))).toEqual([
      { browser: 'Safari 17', system: 'iOS 17.1', current: false },
      { browser: 'Chrome 131', system: 'Linux', current: false },
    ]);
  });

  it('ends one session: that browser answers 401 at once, the other stays', async () => {
    const phone = await login(ctx.app, 'ann@example.test', undefined, { userAgent: SAFARI_IPHONE });
    const laptop = await login(ctx.app, 'ann@example.test', undefined, { userAgent: CHROME_LINUX });
    const target = (await sessionsOf(annId)).find((item) => item.browser === 'Safari 17');
    expect((await admin.request('DELETE', `/api/admin/users/${annId}/sessions/${target?.id}`)).status).toBe(204);
    expect((await phone.request('GET', '/api/user')).status).toBe(401);
    expect((await laptop.request('GET', '/api/user')).status).toBe(200);
  });

  it('ends all of the user’s sessions and none of anyone else’s', async () => {
    const ann = [await login(ctx.app, 'ann@example.test'), await login(ctx.app, 'ann@example.test')];
    expect((await admin.request('DELETE', `/api/admin/users/${annId}/sessions`)).status).toBe(204);
    for (const client of ann) expect((await client.request('GET', '/api/user')).status).toBe(401);
    expect(await sessionsOf(annId)).toEqual([]);
    expect((await admin.request('GET', '/api/user')).status).toBe(200);
  });

  it('answers 404 for an unknown user, and for a session that belongs to another user', async () => {
    const bobId = (await createUser(ctx, { email: 'bob@example.test' })).id;
    const bob = await login(ctx.app, 'bob@example.test');
    const [bobs] = await sessionsOf(bobId);
    expect((await admin.request('GET', '/api/admin/users/9999/sessions')).status).toBe(404);
    expect((await admin.request('DELETE', '/api/admin/users/9999/sessions')).status).toBe(404);
    expect((await admin.request('DELETE', `/api/admin/users/${annId}/sessions/${bobs?.id}`)).status).toBe(404);
    expect((await bob.request('GET', '/api/user')).status).toBe(200);
  });

  it('refuses users who are not admins (403) and visitors (401)', async () => {
    const ann = await login(ctx.app, 'ann@example.test');
    expect((await ann.request('GET', `/api/admin/users/${annId}/sessions`)).status).toBe(403);
    expect((await ann.request('DELETE', `/api/admin/users/${annId}/sessions`)).status).toBe(403);
    expect((await ann.request('POST', '/api/auth/logout')).status).toBe(204);
    expect((await ann.request('GET', `/api/admin/users/${annId}/sessions`)).status).toBe(401);
  });
});
