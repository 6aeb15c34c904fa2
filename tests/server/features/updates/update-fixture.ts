// The releases the update API tests read (issue 25): versions with pre-releases on both channels, a gated
// release, a hidden one, files per platform and arch; and license keys for each kind of holder.
import { createUser } from '../../../helpers/auth.ts';
import { createReleaseDirect, patternBytes, type DirectFile } from '../../../helpers/downloads.ts';
import { createLicenseDirect, daysFromNow } from '../../../helpers/releases.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

export interface UpdateFixture {
  ctx: TestContext;
  keys: { pro: string; proExpired: string; betaOnly: string; proBeta: string; suspended: string };
  /** The bytes of each file by its name. */
  bytes: Map<string, Buffer>;
  licenseIds: Record<string, number>;
}

export async function createUpdateFixture(options: { fakeClock?: boolean } = {}): Promise<UpdateFixture> {
  const ctx = createTestContext({ fakeClock: options.fakeClock });
  const bytes = new Map<string, Buffer>();
  let seed = 0;
  const file = (name: string, platform: DirectFile['platform'], arch: DirectFile['arch']): DirectFile => {
    const content = patternBytes(2000 + seed * 37, ++seed);
    bytes.set(name, content);
    return { name, content, platform, arch };
  };
  const release = (version: string, daysAgo: number, files: DirectFile[], extra: Parameters<typeof createReleaseDirect>[1] = {}) =>
    createReleaseDirect(ctx, { title: `Suite ${version}`, version, releasedAt: daysFromNow(ctx, -daysAgo), files, ...extra });

  release('1.0.0', 60, [
    file('suite-1.0.0-win-x64.exe', 'windows', 'x64'),
    file('suite-1.0.0-mac.zip', 'macos', 'universal'),
    file('suite-1.0.0-linux.AppImage', 'linux', 'x64'),
  ]);
  release('1.1.0-rc.1', 40, [file('suite-1.1.0-rc.1-win-x64.exe', 'windows', 'x64')], { channel: 'beta' });
  release('1.1.0', 30, [
    file('suite-1.1.0-win-x64.exe', 'windows', 'x64'),
    file('suite-1.1.0-win-arm64.exe', 'windows', 'arm64'),
    file('suite-1.1.0-mac.zip', 'macos', 'universal'),
  ]);
  release('1.2.0-beta.1', 10, [file('suite-1.2.0-beta.1-win-x64.exe', 'windows', 'x64'), file('suite-1.2.0-beta.1-mac.zip', 'macos', 'universal')], {
    channel: 'beta',
  });
  release('1.2.0', 5, [file('suite-1.2.0-win-x64.exe', 'windows', 'x64'), file('suite-1.2.0-mac.zip', 'macos', 'universal')], { entitlement: 'PRO' });
  // Never offered: not downloadable, or no version.
  release('9.0.0', 1, [file('suite-9-win.exe', 'windows', 'x64')], { downloadable: false });
  createReleaseDirect(ctx, { title: 'Viewer', version: null, releasedAt: daysFromNow(ctx, -90), files: [file('viewer-win.exe', 'windows', 'x64')] });

  const owner = await createUser(ctx, { email: 'owner@example.com' });
  const make = (name: string, options: Parameters<typeof createLicenseDirect>[2]) => createLicenseDirect(ctx, owner.id, options);
  const pro = make('pro', { entitlements: ['PRO'], maintenanceUntil: daysFromNow(ctx, 100) });
  const proExpired = make('proExpired', { entitlements: ['PRO'], maintenanceUntil: daysFromNow(ctx, -7) });
  const betaOnly = make('betaOnly', { entitlements: ['BETA'] });
  const proBeta = make('proBeta', { entitlements: ['PRO', 'BETA'] });
  const suspended = make('suspended', { entitlements: ['PRO', 'BETA'] });
  ctx.db.$client.prepare('UPDATE licenses SET suspended = 1 WHERE id = ?').run(suspended.id);
  return {
    ctx,
    bytes,
    keys: { pro: pro.key!, proExpired: proExpired.key!, betaOnly: betaOnly.key!, proBeta: proBeta.key!, suspended: suspended.key! },
    licenseIds: { pro: pro.id, proExpired: proExpired.id, betaOnly: betaOnly.id, proBeta: proBeta.id, suspended: suspended.id },
  };
}

export interface LatestAnswer {
  update: boolean;
  latest: {
    version: string;
    channel: string;
    released_at: string;
    notes_markdown: string;
    notes_html: string;
    file: { name: string; size: number; sha256: string; sha512: string; url: string };
  } | null;
  blocked: { version: string; code: string } | null;
}

/** A GET of the update API as the software sends it: the key in the Authorization header, no cookies. */
export function updateRequest(ctx: TestContext, path: string, key?: string, headers: Record<string, string> = {}) {
  return ctx.app.request(path, { headers: { ...(key ? { Authorization: `License ${key}` } : {}), ...headers } });
}

export async function latest(ctx: TestContext, query: string, key?: string): Promise<LatestAnswer> {
  const response = await updateRequest(ctx, `/api/updates/v1/latest?${query}`, key);
  if (response.status !== 200) throw new Error(`latest answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as LatestAnswer;
}
