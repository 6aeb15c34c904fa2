// electron-updater picks a file by arch in ways the feeds must serve (docs/updates.md#electron-updater): a Linux
// arm64 updater asks latest-linux-arm64.yml and takes its first file; a Linux x64 one takes the first file of
// latest-linux.yml; the macOS updater tells arm64 builds by "arm64" in their URL and otherwise takes the first
// file. A release here has x64 and arm64 files for Linux and macOS, the arm64 ones uploaded first, so a feed
// that kept upload order would hand an Intel machine an arm64 build.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fillFileDigests } from '../../../../server/features/downloads/digests.ts';
import { createReleaseDirect, patternBytes, type DirectFile } from '../../../helpers/downloads.ts';
import { daysFromNow } from '../../../helpers/releases.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';
import { latest, updateRequest } from './update-fixture.ts';

let ctx: TestContext;
const bytes = new Map<string, Buffer>();

beforeAll(async () => {
  ctx = createTestContext({ fakeClock: true });
  let seed = 0;
  const file = (name: string, platform: DirectFile['platform'], arch: DirectFile['arch']): DirectFile => {
    const content = patternBytes(1500 + seed * 41, ++seed);
    bytes.set(name, content);
    return { name, content, platform, arch };
  };
  createReleaseDirect(ctx, {
    title: 'Suite 2.0.0',
    version: '2.0.0',
    releasedAt: daysFromNow(ctx, -3),
    files: [
      file('suite-2.0.0-arm64.AppImage', 'linux', 'arm64'),
      file('suite-2.0.0-x86_64.AppImage', 'linux', 'x64'),
      file('suite-2.0.0-arm64-mac.zip', 'macos', 'arm64'),
      file('suite-2.0.0-x64-mac.zip', 'macos', 'x64'),
    ],
  });
  // An older release built for Linux x64 only: an arm64 machine must not be offered it.
  createReleaseDirect(ctx, {
    title: 'Suite 1.9.0',
    version: '1.9.0',
    releasedAt: daysFromNow(ctx, -30),
    files: [file('suite-1.9.0.AppImage', 'linux', 'x64')],
  });
  await fillFileDigests(ctx);
});
afterAll(() => ctx.cleanup());

interface UpdateInfo {
  version: string;
  files: Array<{ url: string; sha512: string; size: number }>;
  path: string;
}

async function updateInfo(file: string): Promise<UpdateInfo> {
  const response = await updateRequest(ctx, `/api/updates/v1/stable/${file}`);
  expect(response.status, file).toBe(200);
  return parse(await response.text()) as UpdateInfo;
}

/** The file a URL of a feed serves, found by its bytes (each file's bytes differ). */
async function nameServedAt(url: string): Promise<string> {
  const response = await ctx.app.request(url);
  expect(response.status, url).toBe(200);
  const served = Buffer.from(await response.arrayBuffer());
  const name = [...bytes].find(([, content]) => content.equals(served))?.[0];
  if (!name) throw new Error(`${url} served bytes of no fixture file`);
  return name;
}

/** electron-updater's MacUpdater: arm64 machines keep the URLs with "arm64" when there are any, others drop them; then the first. */
function macUpdaterChoice(files: UpdateInfo['files'], arm64Mac: boolean): UpdateInfo['files'][number] | undefined {
  const isArm64 = (file: { url: string }) => new URL(file.url).pathname.includes('arm64') || file.url.includes('arm64');
  const candidates = arm64Mac && files.some(isArm64) ? files.filter(isArm64) : files.filter((file) => !isArm64(file));
  return candidates[0];
}

describe('update info by arch for electron-updater', () => {
  it('latest-linux.yml offers the x64 AppImage first and never an arm64 one', async () => {
    const info = await updateInfo('latest-linux.yml');
    expect(info.version).toBe('2.0.0');
    expect(await Promise.all(info.files.map((file) => nameServedAt(file.url)))).toEqual(['suite-2.0.0-x86_64.AppImage']);
    expect(info.path).toBe(info.files[0]?.url);
  });

  it('latest-linux-arm64.yml offers the arm64 AppImage, with its sha512 matching the bytes served', async () => {
    const info = await updateInfo('latest-linux-arm64.yml');
    expect(info.version).toBe('2.0.0');
    expect(info.files).toHaveLength(1);
    const [only] = info.files;
    expect(await nameServedAt(only!.url)).toBe('suite-2.0.0-arm64.AppImage');
    expect(only!.sha512).toBe(createHash('sha512').update(bytes.get('suite-2.0.0-arm64.AppImage')!).digest('base64'));
    expect(only!.size).toBe(bytes.get('suite-2.0.0-arm64.AppImage')!.length);
  });

  it('latest-mac.yml lets the macOS updater pick the arm64 build on Apple silicon and the x64 one on Intel', async () => {
    const info = await updateInfo('latest-mac.yml');
    // Older updaters take the first file: the one every Mac can run.
    expect(await nameServedAt(info.files[0]!.url)).toBe('suite-2.0.0-x64-mac.zip');
    expect(await nameServedAt(macUpdaterChoice(info.files, true)!.url)).toBe('suite-2.0.0-arm64-mac.zip');
    expect(await nameServedAt(macUpdaterChoice(info.files, false)!.url)).toBe('suite-2.0.0-x64-mac.zip');
  });

  it('a link whose arch was changed is refused', async () => {
    const info = await updateInfo('latest-mac.yml');
    const x64 = new URL(info.files[0]!.url);
    expect(x64.searchParams.get('arch')).toBe('x64');
    x64.searchParams.set('arch', 'arm64');
    const response = await ctx.app.request(x64.toString());
    expect(response.status).toBe(403);
    expect(((await response.json()) as { code: string }).code).toBe('INVALID_SIGNATURE');
  });

  it('latest for Linux arm64 never falls back to an x64 build; Windows and macOS arm64 still may', async () => {
    expect((await latest(ctx, 'platform=linux&arch=arm64')).latest?.file.name).toBe('suite-2.0.0-arm64.AppImage');
    ctx.db.$client.prepare("UPDATE download_items SET downloadable = 0 WHERE version = '2.0.0'").run();
    try {
      expect((await latest(ctx, 'platform=linux&arch=arm64')).latest).toBeNull();
      expect((await latest(ctx, 'platform=linux&arch=x64')).latest?.file.name).toBe('suite-1.9.0.AppImage');
    } finally {
      ctx.db.$client.prepare("UPDATE download_items SET downloadable = 1 WHERE version = '2.0.0'").run();
    }
  });
});
