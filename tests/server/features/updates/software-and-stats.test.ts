// "My software" (GET /api/user/software) and the admins' numbers (GET /api/admin/downloads/stats), issue 25
// items 5 and 6 (the server's part): per license what it gives in words, the releases it lets the user
// download and the one it does not; every update check counted (day, channel, platform, version) without a
// write per request, every download once per downloader, file and day, a resumed download once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushUpdateChecks } from '../../../../server/features/updates/index.ts';
import { createClient, createUser, login, type TestClient } from '../../../helpers/auth.ts';
import { createLicenseDirect, daysFromNow } from '../../../helpers/releases.ts';
import { createUpdateFixture, latest, type UpdateFixture } from './update-fixture.ts';

let f: UpdateFixture;
let owner: TestClient;
let admin: TestClient;
beforeEach(async () => {
  f = await createUpdateFixture();
  owner = await login(f.ctx.app, 'owner@example.com');
  await createUser(f.ctx, { email: 'admin@example.com', role: 'admin' });
  admin = await login(f.ctx.app, 'admin@example.com');
});
afterEach(() => f.ctx.cleanup());

interface SoftwareRelease {
  version: string | null;
  channel: string;
  notes_html: string;
  files: Array<{ url: string; platform: string }>;
}
interface SoftwareLicense {
  id: number;
  type: string;
  status: { code: string; text: string };
  entitlements: string[];
  entitlements_text: string;
  maintenance_until: string | null;
  latest: SoftwareRelease | null;
  older: SoftwareRelease[];
  blocked: { version: string | null; code: string; message: string } | null;
}

describe('GET /api/user/software', () => {
  it('answers 401 without a session', async () => {
    expect((await createClient(f.ctx.app).request('GET', '/api/user/software')).status).toBe(401);
  });

  it('gives each license its releases, newest first, and the one it may not have', async () => {
    const response = await owner.request('GET', '/api/user/software');
    expect(response.status).toBe(200);
    const { licenses } = (await response.json()) as { licenses: SoftwareLicense[] };
    const of = (id: number) => licenses.find((license) => license.id === id)!;
    const versions = (license: SoftwareLicense) => [license.latest?.version ?? null, ...license.older.map((release) => release.version)];

    const proExpired = of(f.licenseIds.proExpired!);
    expect(proExpired).toMatchObject({
      entitlements: ['PRO'],
      entitlements_text: 'Includes PRO',
      status: { code: 'VALID' },
      maintenance_until: expect.any(String),
      blocked: { version: '1.2.0', code: 'MAINTENANCE_EXPIRED', message: expect.stringContaining('Renew') },
    });
    // Ungated stable releases (the viewer without a version too), newest release date first.
    expect(versions(proExpired)).toEqual(['1.1.0', '1.0.0', null]);
    expect(proExpired.latest?.notes_html).toBe('<p>Notes</p>');
    expect(proExpired.latest?.files.map((file) => file.platform)).toEqual(['windows', 'windows', 'macos']);

    const proBeta = of(f.licenseIds.proBeta!);
    expect(proBeta.entitlements_text).toBe('Includes beta releases and PRO');
    expect(proBeta.blocked).toBeNull();
    expect(versions(proBeta)).toEqual(['1.2.0', '1.2.0-beta.1', '1.1.0', '1.1.0-rc.1', '1.0.0', null]);

    const suspended = of(f.licenseIds.suspended!);
    expect(suspended.status.code).toBe('SUSPENDED');
    expect(suspended.blocked).toMatchObject({ version: '1.2.0', code: 'NO_LICENSE' });
    // The hidden release is never listed.
    expect(licenses.flatMap((license) => versions(license))).not.toContain('9.0.0');
  });

  it('every file offered to the user downloads', async () => {
    const { licenses } = (await (await owner.request('GET', '/api/user/software')).json()) as { licenses: SoftwareLicense[] };
    const offered = licenses.flatMap((license) => [license.latest, ...license.older]).flatMap((release) => release?.files ?? []);
    expect(offered.length).toBeGreaterThan(5);
    for (const file of offered) {
      const response = await owner.request('GET', file.url);
      expect(response.status, file.url).toBe(200);
      await response.arrayBuffer();
    }
  });
});

describe('GET /api/admin/downloads/stats', () => {
  const stats = async (query = '') => {
    const response = await admin.request('GET', `/api/admin/downloads/stats${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as {
      downloads: Array<{ version: string | null; platform: string; count: number }>;
      checks: Array<{ version: string | null; count: number }>;
      on_latest_pct: number | null;
    };
  };

  it('is empty, with no share on latest, before anything happened', async () => {
    expect(await stats()).toEqual({ downloads: [], checks: [], on_latest_pct: null });
  });

  it('counts update checks per reported version and the share already on the newest release', async () => {
    for (const current of ['1.2.0', '1.2.0', '1.2.0', '1.0.0']) await latest(f.ctx, `platform=windows&current=${current}`);
    await latest(f.ctx, 'platform=windows');
    // Counted in memory: nothing is written per request.
    expect(f.ctx.db.$client.prepare('SELECT count(*) AS n FROM update_checks').get()).toEqual({ n: 0 });
    flushUpdateChecks(f.ctx);
    const answer = await stats();
    expect(answer.checks).toEqual([
      { version: '1.2.0', count: 3 },
      { version: '1.0.0', count: 1 },
      { version: null, count: 1 },
    ]);
    // 1.2.0 is the newest stable Windows release (gated or not): three of the four checks that reported a version.
    expect(answer.on_latest_pct).toBe(75);
    await latest(f.ctx, 'platform=windows&current=1.1.0');
    flushUpdateChecks(f.ctx);
    expect((await stats()).on_latest_pct).toBe(60);
  });

  it('counts a download once across a resumed download, per key, file and day', async () => {
    const url = (await latest(f.ctx, 'platform=windows', f.keys.pro)).latest!.file.url;
    const first = await f.ctx.app.request(url, { headers: { Range: 'bytes=0-99' } });
    await first.arrayBuffer();
    await (await f.ctx.app.request(url, { headers: { Range: 'bytes=100-' } })).arrayBuffer();
    // A fresh link for the same key is the same downloader.
    await (await f.ctx.app.request((await latest(f.ctx, 'platform=windows', f.keys.pro)).latest!.file.url)).arrayBuffer();
    // A signed-in user downloading the same file is another downloader.
    const pro = createLicenseDirect(f.ctx, (await createUser(f.ctx, { email: 'buyer@example.com' })).id, {
      entitlements: ['PRO'],
      maintenanceUntil: daysFromNow(f.ctx, 30),
    });
    expect(pro.id).toBeGreaterThan(0);
    const buyer = await login(f.ctx.app, 'buyer@example.com');
    const detail = (await (await buyer.request('GET', '/api/downloads/getSections')).json()) as {
      sections: Array<{ version: string | null; files: Array<{ url: string; platform: string }> }>;
    };
    const file = detail.sections.find((release) => release.version === '1.2.0')!.files.find((each) => each.platform === 'windows')!;
    await (await buyer.request('GET', file.url)).arrayBuffer();
    expect((await stats()).downloads).toEqual([{ version: '1.2.0', platform: 'windows', count: 2 }]);
  });

  it('reads 1 to 365 days and refuses anything else; admins only', async () => {
    expect((await admin.request('GET', '/api/admin/downloads/stats?days=0')).status).toBe(422);
    expect((await admin.request('GET', '/api/admin/downloads/stats?days=366')).status).toBe(422);
    expect((await admin.request('GET', '/api/admin/downloads/stats?days=many')).status).toBe(422);
    expect(await stats('?days=365')).toEqual({ downloads: [], checks: [], on_latest_pct: null });
    expect((await owner.request('GET', '/api/admin/downloads/stats')).status).toBe(403);
  });
});
