// The feeds the updaters read (issue 25 item 4): latest*.yml parsed with a YAML parser, its sha512 checked
// against the bytes served at its signed URL; the Sparkle appcast, every signature verified with node:crypto
// against the JWKS at /api/updates/v1/keys; the signed links (ranges, altered, expired, decided again).
import { createHash, createPublicKey, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fillFileDigests } from '../../../../server/features/downloads/digests.ts';
import { createUpdateFixture, latest, updateRequest, type UpdateFixture } from './update-fixture.ts';

let f: UpdateFixture;
beforeAll(async () => {
  f = await createUpdateFixture({ fakeClock: true });
  // The signatures the background pass gives every file after upload.
  await fillFileDigests(f.ctx);
});
afterAll(() => f.ctx.cleanup());

async function getBytes(url: string, headers: Record<string, string> = {}) {
  const response = await f.ctx.app.request(url, { headers });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('latest.yml for electron-updater', () => {
  it.each([
    ['latest.yml', 'stable', undefined, '1.1.0', ['suite-1.1.0-win-x64.exe', 'suite-1.1.0-win-arm64.exe']],
    ['latest-mac.yml', 'stable', 'pro', '1.2.0', ['suite-1.2.0-mac.zip']],
    ['latest-linux.yml', 'beta', 'proBeta', '1.0.0', ['suite-1.0.0-linux.AppImage']],
    ['latest.yml', 'beta', 'betaOnly', '1.2.0-beta.1', ['suite-1.2.0-beta.1-win-x64.exe']],
  ] as const)('%s on %s (%s) names %s, and each sha512 matches the bytes at its URL', async (file, channel, keyName, version, names) => {
    const response = await updateRequest(f.ctx, `/api/updates/v1/${channel}/${file}`, keyName ? f.keys[keyName] : undefined);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/yaml/);
    const info = parse(await response.text()) as {
      version: string;
      files: Array<{ url: string; sha512: string; size: number }>;
      path: string;
      sha512: string;
      releaseDate: string;
    };
    expect(info.version).toBe(version);
    expect(info.path).toBe(info.files[0]?.url);
    expect(info.sha512).toBe(info.files[0]?.sha512);
    expect(Number.isNaN(Date.parse(info.releaseDate))).toBe(false);
    expect(info.files).toHaveLength(names.length);
    for (const [index, entry] of info.files.entries()) {
      expect(entry.url).toMatch(/^http:\/\/localhost:4321\/api\/updates\/v1\/files\/\d+\?/);
      const { response: served, bytes } = await getBytes(entry.url);
      expect(served.status).toBe(200);
      expect(bytes.equals(f.bytes.get(names[index]!)!)).toBe(true);
      expect(entry.size).toBe(bytes.length);
      expect(entry.sha512).toBe(createHash('sha512').update(bytes).digest('base64'));
    }
  });

  it('answers 404 NO_RELEASE when the holder may have nothing on that feed', async () => {
    f.ctx.db.$client.prepare("UPDATE download_items SET entitlement = 'PRO' WHERE version = '1.0.0'").run();
    try {
      const response = await updateRequest(f.ctx, '/api/updates/v1/stable/latest-linux.yml');
      expect(response.status).toBe(404);
      expect(((await response.json()) as { code: string }).code).toBe('NO_RELEASE');
    } finally {
      f.ctx.db.$client.prepare("UPDATE download_items SET entitlement = NULL WHERE version = '1.0.0'").run();
    }
  });
});

describe('the Sparkle appcast', () => {
  it('lists what the key may have for macOS, newest first, each signature verified against the JWKS', async () => {
    const jwks = (await (await f.ctx.app.request('/api/updates/v1/keys')).json()) as { keys: Array<{ kty: string; crv: string; x: string; kid: string }> };
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', kid: expect.any(String) });
    expect(jwks.keys.map((key) => key.kid)).not.toContain(f.ctx.keyring().current.kid);
    const response = await updateRequest(f.ctx, '/api/updates/v1/beta/appcast.xml?platform=macos', f.keys.proBeta);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/rss\+xml/);
    const xml = await response.text();
    const items = [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((match) => match[1]!);
    const versions = items.map((item) => /<sparkle:version>([^<]+)<\/sparkle:version>/.exec(item)?.[1]);
    expect(versions).toEqual(['1.2.0', '1.2.0-beta.1', '1.1.0', '1.0.0']);
    for (const item of items) {
      expect(item).toMatch(/<sparkle:shortVersionString>[^<]+<\/sparkle:shortVersionString>/);
      expect(item).toMatch(/<pubDate>\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT<\/pubDate>/);
      expect(item).toContain('<description><![CDATA[<p>Notes</p>]]></description>');
      const enclosure = /<enclosure url="([^"]+)" length="(\d+)" type="application\/octet-stream" sparkle:edSignature="([^"]+)"\/>/.exec(item);
      expect(enclosure).not.toBeNull();
      const [, url, length, signature] = enclosure!;
      const { bytes } = await getBytes(url!.replaceAll('&amp;', '&'));
      expect(bytes.length).toBe(Number(length));
      const verified = jwks.keys.some((jwk) => verify(null, bytes, createPublicKey({ key: { ...jwk }, format: 'jwk' }), Buffer.from(signature!, 'base64')));
      expect(verified).toBe(true);
    }
  });

  it('without a key lists only ungated stable releases', async () => {
    const xml = await (await updateRequest(f.ctx, '/api/updates/v1/stable/appcast.xml')).text();
    expect([...xml.matchAll(/<sparkle:version>([^<]+)</g)].map((match) => match[1])).toEqual(['1.1.0', '1.0.0']);
  });

  it('leaves out a file not yet signed rather than offer it without a signature', async () => {
    f.ctx.db.$client.prepare("UPDATE release_files SET ed_signature = NULL WHERE name = 'suite-1.1.0-mac.zip'").run();
    const xml = await (await updateRequest(f.ctx, '/api/updates/v1/stable/appcast.xml')).text();
    expect([...xml.matchAll(/<sparkle:version>([^<]+)</g)].map((match) => match[1])).toEqual(['1.0.0']);
    await fillFileDigests(f.ctx);
  });
});

describe('signed links', () => {
  const linkOf = async (key?: string) => (await latest(f.ctx, 'platform=windows', key)).latest!.file.url;

  it('serve ranges, without a session, so a cut download resumes', async () => {
    const url = await linkOf(f.keys.pro);
    const whole = f.bytes.get('suite-1.2.0-win-x64.exe')!;
    const { response, bytes } = await getBytes(url, { Range: 'bytes=100-' });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 100-${whole.length - 1}/${whole.length}`);
    expect(bytes.equals(whole.subarray(100))).toBe(true);
  });

  it('answer 403 when any part of the link was changed', async () => {
    const url = new URL(await linkOf(f.keys.pro));
    const sig = url.searchParams.get('sig')!;
    const variants = [
      url.href.replace(`sig=${sig}`, `sig=${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`),
      url.href.replace(/files\/(\d+)/, (_m, id: string) => `files/${Number(id) + 1}`),
      url.href.replace(/expires=(\d+)/, (_m, expires: string) => `expires=${Number(expires) + 3600}`),
      url.href.replace(/license=(\d+)/, `license=${f.licenseIds.proBeta}`),
      url.href.replace(/&?sig=[0-9a-f]+/, ''),
    ];
    for (const variant of variants) {
      const response = await f.ctx.app.request(variant);
      expect(response.status, variant).toBe(403);
      expect(await response.json()).toEqual({ code: 'INVALID_SIGNATURE', message: 'This download link is not valid.' });
    }
  });

  it('answer 403 LINK_EXPIRED after 15 minutes', async () => {
    const url = await linkOf();
    f.ctx.advance(14 * 60_000);
    expect((await getBytes(url)).response.status).toBe(200);
    f.ctx.advance(61_000);
    const expired = await f.ctx.app.request(url);
    expect(expired.status).toBe(403);
    expect(await expired.json()).toEqual({ code: 'LINK_EXPIRED', message: 'This download link has expired. Ask for the update again.' });
  });

  it('decide again at download time: a license suspended since gets the refusal, not the file', async () => {
    const url = await linkOf(f.keys.pro);
    f.ctx.db.$client.prepare('UPDATE licenses SET suspended = 1 WHERE id = ?').run(f.licenseIds.pro);
    try {
      const response = await f.ctx.app.request(url);
      expect(response.status).toBe(403);
      expect(((await response.json()) as { code: string }).code).toBe('NO_LICENSE');
    } finally {
      f.ctx.db.$client.prepare('UPDATE licenses SET suspended = 0 WHERE id = ?').run(f.licenseIds.pro);
    }
  });
});
