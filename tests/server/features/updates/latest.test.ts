// GET /api/updates/v1/latest (issue 25 item 4): the newest release a key (or no key) may download for a
// platform over a fixture of versions with pre-releases on both channels; `update` against `current` in
// semver order; `blocked` with the code that lets the software offer a renewal; the key in the header or the
// query; the machine-API answers for a wrong key or query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUpdateFixture, latest, updateRequest, type UpdateFixture } from './update-fixture.ts';

let f: UpdateFixture;
beforeAll(async () => {
  f = await createUpdateFixture();
});
afterAll(() => f.ctx.cleanup());

const versionAndBlocked = async (query: string, key?: string) => {
  const answer = await latest(f.ctx, query, key);
  return { latest: answer.latest?.version ?? null, file: answer.latest?.file.name ?? null, blocked: answer.blocked };
};

describe('which release is latest', () => {
  it.each([
    ['no key, stable', 'platform=windows', undefined, { latest: '1.1.0', file: 'suite-1.1.0-win-x64.exe', blocked: { version: '1.2.0', code: 'NO_LICENSE' } }],
    [
      'no key, beta',
      'channel=beta&platform=windows',
      undefined,
      { latest: '1.1.0', file: 'suite-1.1.0-win-x64.exe', blocked: { version: '1.2.0', code: 'NO_LICENSE' } },
    ],
    ['PRO, stable', 'platform=windows', 'pro', { latest: '1.2.0', file: 'suite-1.2.0-win-x64.exe', blocked: null }],
    ['PRO, beta: no BETA, so the stable 1.2.0', 'channel=beta&platform=windows', 'pro', { latest: '1.2.0', file: 'suite-1.2.0-win-x64.exe', blocked: null }],
    [
      'PRO with maintenance over',
      'platform=windows',
      'proExpired',
      { latest: '1.1.0', file: 'suite-1.1.0-win-x64.exe', blocked: { version: '1.2.0', code: 'MAINTENANCE_EXPIRED' } },
    ],
    [
      'BETA only, beta',
      'channel=beta&platform=windows',
      'betaOnly',
      { latest: '1.2.0-beta.1', file: 'suite-1.2.0-beta.1-win-x64.exe', blocked: { version: '1.2.0', code: 'ENTITLEMENTS_MISSING' } },
    ],
    ['PRO and BETA, beta', 'channel=beta&platform=macos', 'proBeta', { latest: '1.2.0', file: 'suite-1.2.0-mac.zip', blocked: null }],
    [
      'a suspended license',
      'channel=beta&platform=windows',
      'suspended',
      { latest: '1.1.0', file: 'suite-1.1.0-win-x64.exe', blocked: { version: '1.2.0', code: 'NO_LICENSE' } },
    ],
    ['linux: only 1.0.0 has a file', 'platform=linux', 'proBeta', { latest: '1.0.0', file: 'suite-1.0.0-linux.AppImage', blocked: null }],
    [
      'arm64: its own file',
      'platform=windows&arch=arm64',
      undefined,
      { latest: '1.1.0', file: 'suite-1.1.0-win-arm64.exe', blocked: { version: '1.2.0', code: 'NO_LICENSE' } },
    ],
    ['arm64 without its own file: the x64 one', 'platform=windows&arch=arm64', 'pro', { latest: '1.2.0', file: 'suite-1.2.0-win-x64.exe', blocked: null }],
  ] as const)('%s', async (_name, query, keyName, expected) => {
    expect(await versionAndBlocked(query, keyName ? f.keys[keyName] : undefined)).toEqual(expected);
  });

  it('answers the release with its notes, dates and a signed link', async () => {
    const answer = await latest(f.ctx, 'platform=windows', f.keys.pro);
    expect(answer.latest).toEqual({
      version: '1.2.0',
      channel: 'stable',
      released_at: expect.any(String),
      notes_markdown: 'Notes',
      notes_html: '<p>Notes</p>',
      file: {
        name: 'suite-1.2.0-win-x64.exe',
        size: f.bytes.get('suite-1.2.0-win-x64.exe')!.length,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        sha512: expect.stringMatching(/^[0-9a-f]{128}$/),
        url: expect.stringMatching(/^http:\/\/localhost:4321\/api\/updates\/v1\/files\/\d+\?(?=.*expires=\d+)(?=.*sig=[0-9a-f]{64})/),
      },
    });
  });

  it('answers null when nothing on the channel has a file the holder may download for the platform', async () => {
    // Every release with a Linux file but 1.0.0 is gated or hidden; take 1.0.0's file away from the feed.
    const { sha512 } = f.ctx.db.$client.prepare("SELECT sha512 FROM release_files WHERE name = 'suite-1.0.0-linux.AppImage'").get() as { sha512: string };
    f.ctx.db.$client.prepare("UPDATE release_files SET sha512 = NULL WHERE name = 'suite-1.0.0-linux.AppImage'").run();
    try {
      expect(await latest(f.ctx, 'platform=linux&current=1.0.0')).toEqual({ update: false, latest: null, blocked: null });
    } finally {
      f.ctx.db.$client.prepare("UPDATE release_files SET sha512 = ? WHERE name = 'suite-1.0.0-linux.AppImage'").run(sha512);
    }
  });
});

describe('update', () => {
  it.each([
    ['1.0.0', true],
    ['1.1.0-rc.1', true],
    ['1.1.0', false],
    ['1.2.0-beta.1', false],
    ['2.0.0', false],
  ])('current %s against the latest 1.1.0: %s', async (current, update) => {
    expect((await latest(f.ctx, `platform=windows&current=${current}`)).update).toBe(update);
  });

  it('against the beta 1.2.0-beta.1, a 1.2.0-alpha is older and 1.2.0 newer', async () => {
    expect((await latest(f.ctx, 'channel=beta&platform=windows&current=1.2.0-alpha.9', f.keys.betaOnly)).update).toBe(true);
    expect((await latest(f.ctx, 'channel=beta&platform=windows&current=1.2.0', f.keys.betaOnly)).update).toBe(false);
  });
});

describe('the key and the request', () => {
  it('takes the key from the query for updaters that cannot set headers', async () => {
    const answer = await latest(f.ctx, `platform=windows&key=${encodeURIComponent(f.keys.pro.toLowerCase())}`);
    expect(answer.latest?.version).toBe('1.2.0');
  });

  it('refuses an unknown key and a header that is not `License <key>`', async () => {
    const unknown = await updateRequest(f.ctx, '/api/updates/v1/latest?platform=windows', 'DCTL-AAAAA-AAAAA-AAAAA-AAAAA-AAAAA-AAAAA');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ code: 'NOT_FOUND', message: 'No license has this key.' });
    const bearer = await updateRequest(f.ctx, '/api/updates/v1/latest?platform=windows', undefined, { Authorization: `Bearer ${f.keys.pro}` });
    expect(bearer.status).toBe(401);
    expect(((await bearer.json()) as { code: string }).code).toBe('INVALID_AUTHORIZATION');
  });

  it.each([
    ['', 'platform', 'The platform field must be windows, macos or linux.'],
    ['platform=amiga', 'platform', 'The platform field must be windows, macos or linux.'],
    ['platform=windows&channel=nightly', 'channel', 'The channel field must be stable or beta.'],
    ['platform=windows&current=1.2', 'current', 'The current field must be a version like 1.2.3 or 1.3.0-beta.1.'],
  ])('answers 422 for %j', async (query, field, message) => {
    const response = await updateRequest(f.ctx, `/api/updates/v1/latest?${query}`);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ code: 'INVALID_REQUEST', message, errors: { [field]: [message] } });
  });

  it('ignores cookies: a session changes nothing', async () => {
    const answer = await updateRequest(f.ctx, '/api/updates/v1/latest?platform=windows', undefined, { Cookie: 'session=whatever' });
    expect(((await answer.json()) as { latest: { version: string } }).latest.version).toBe('1.1.0');
  });
});
