// What a pull CDN in front of the site relies on (docs/scaling.md#a-pull-cdn), on a real port: hashed
// assets and media cacheable for a year, pages revalidated by ETag, the encoding named in Vary wherever the
// body depends on it, and nothing personal ever shareable: every /api and /sanctum answer and every private
// download says no-store or private, and no answer a shared cache may keep ever sets a cookie.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../server/server.ts';
import { loadStaticSite, type StaticSite } from '../../../server/static/static-site.ts';
import { createUser, login } from '../../helpers/auth.ts';
import { createReleaseDirect } from '../../helpers/downloads.ts';
import { listen, rawRequest, type RawResponse } from '../../helpers/raw-http.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';
import { writeFixtureBuild } from '../static/fixture-build.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Directives under which no shared cache stores an answer (RFC 9111 5.2.2.3, 5.2.2.7). */
const NOT_SHARED = /(?:^|,)\s*(?:private|no-store)\b/i;

let ctx: TestContext;
let site: StaticSite | null;
let server: Awaited<ReturnType<typeof listen>>;
let signedIn: string;
let releaseId: number;
const seen: { target: string; answer: RawResponse }[] = [];

async function get(target: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const answer = await rawRequest(server.port, target, { headers });
  seen.push({ target, answer });
  return answer;
}

const sharedCacheMayStore = (answer: RawResponse) => !NOT_SHARED.test(String(answer.headers['cache-control'] ?? ''));

beforeAll(async () => {
  ctx = createTestContext();
  const { buildDir, mediaDir } = writeFixtureBuild(ctx.dataDir);
  site = await loadStaticSite(buildDir);
  server = await listen(createHttpServer({ app: ctx.app, getSite: () => site, mediaDir }));
  await createUser(ctx, { email: 'reader@example.com' });
  signedIn = (await login(ctx.app, 'reader@example.com')).cookieHeader;
  releaseId = createReleaseDirect(ctx, { title: 'Setup' }).id;
});
afterAll(async () => {
  await server.close();
  ctx.cleanup();
});

describe('cacheable classes', () => {
  it('hashed /_astro assets: a year, immutable, Vary only where an encoding changes the bytes', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const script = await get('/_astro/app.Ab12Cd.js', { 'Accept-Encoding': encoding });
      expect(script.status).toBe(200);
      expect(script.headers['cache-control']).toBe(IMMUTABLE);
      expect(script.headers.vary).toBe('Accept-Encoding');
    }
    // An image is never re-encoded: one representation, no Vary to split the CDN's cache.
    const image = await get('/_astro/logo.Zz99.png', { 'Accept-Encoding': 'br' });
    expect(image.headers['cache-control']).toBe(IMMUTABLE);
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.headers.vary).toBeUndefined();
  });

  it('pages: no-cache with an ETag per encoding, and 304 (with the same cache headers) when it still matches', async () => {
    const tags = new Set<string>();
    for (const encoding of ['br', 'gzip', 'identity']) {
      const page = await get('/news/', { 'Accept-Encoding': encoding });
      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers.vary).toBe('Accept-Encoding');
      const etag = String(page.headers.etag);
      expect(etag).toMatch(/^"[\w-]+"$/);
      tags.add(etag);
      const again = await get('/news/', { 'Accept-Encoding': encoding, 'If-None-Match': etag });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('no-cache');
      expect(again.headers.vary).toBe('Accept-Encoding');
    }
    // A CDN that stores the gzip form must not answer a brotli client's revalidation with it.
    expect(tags.size).toBe(3);
    // A CDN revalidating with a weak validator (some rewrite strong ones to W/ when they re-encode) still gets 304.
    const weak = await get('/news/', { 'If-None-Match': `W/${[...tags][2]}` });
    expect(weak.status).toBe(304);
  });

  it('pages are the same bytes for every visitor: a session cookie changes nothing and is never answered with one', async () => {
    const anonymous = await get('/', { 'Accept-Encoding': 'br' });
    const member = await get('/', { 'Accept-Encoding': 'br', Cookie: signedIn });
    expect(member.status).toBe(200);
    expect(member.headers.etag).toBe(anonymous.headers.etag);
    expect(member.body.equals(anonymous.body)).toBe(true);
    expect(member.headers['set-cookie']).toBeUndefined();
  });

  it('public media: a year, immutable, validators, byte ranges, no Vary, never a cookie', async () => {
    const image = await get('/media/home/pic.webp', { 'Accept-Encoding': 'br, gzip', Cookie: signedIn });
    expect(image.status).toBe(200);
    expect(image.headers['cache-control']).toBe(IMMUTABLE);
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.headers.vary).toBeUndefined();
    expect(image.headers['accept-ranges']).toBe('bytes');
    expect(image.headers['set-cookie']).toBeUndefined();
    const etag = String(image.headers.etag);
    const again = await get('/media/home/pic.webp', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers['cache-control']).toBe(IMMUTABLE);
    const part = await get('/media/home/pic.webp', { Range: 'bytes=0-3' });
    expect(part.status).toBe(206);
    expect(part.text).toBe('RIFF');
  });

  it('the licensing public keys: cacheable for five minutes when asked without cookies', async () => {
    const keys = await get('/api/licensing/v1/keys');
    expect(keys.status).toBe(200);
    expect(keys.headers['cache-control']).toBe('public, max-age=300');
    expect(keys.headers['set-cookie']).toBeUndefined();
  });
});

describe('never shared', () => {
  it('every /api answer, anonymous or signed in, is no-store or private', async () => {
    const targets = ['/api/user', '/api/downloads/getSections', '/api/news/getPosts/byslug/nothing-here', '/api/no-such-route', '/api/home/getSections'];
    for (const target of targets) {
      for (const cookie of [undefined, signedIn]) {
        const answer = await get(target, cookie ? { Cookie: cookie } : {});
        expect(sharedCacheMayStore(answer), `${target} ${cookie ? 'signed in' : 'anonymous'}: ${answer.headers['cache-control']}`).toBe(false);
      }
    }
  });

  it('a release file: private, even though it has validators and ranges', async () => {
    const file = await get(`/api/downloads/file/${releaseId}`, { Cookie: signedIn });
    expect(file.status).toBe(200);
    expect(file.headers['cache-control']).toMatch(/^private\b/);
    expect(file.headers.etag).toBeDefined();
    // Without the session it is refused, and the refusal is not cacheable either.
    const refused = await get(`/api/downloads/file/${releaseId}`);
    expect(refused.status).toBe(401);
    expect(sharedCacheMayStore(refused)).toBe(false);
  });

  it('/sanctum/csrf-cookie is one browser’s token: no-store, for a visitor too', async () => {
    const visitor = await get('/sanctum/csrf-cookie');
    expect(visitor.status).toBe(204);
    expect(visitor.headers['set-cookie']).toBeDefined();
    expect(visitor.headers['cache-control']).toBe('no-store');
  });

  it('a public answer that has to set a cookie becomes no-store (the OpenAPI document, asked with an ended session)', async () => {
    const described = await get('/api/openapi.json', { Cookie: 'session=ended-or-forged-token; signed_in=1' });
    expect(described.status).toBe(200);
    expect(described.headers['set-cookie']).toBeDefined();
    expect(described.headers['cache-control']).toBe('no-store');
    // The machine APIs read no cookie at all (server/auth/csrf.ts): their public keys stay shareable.
    const keys = await get('/api/licensing/v1/keys', { Cookie: 'session=ended-or-forged-token; signed_in=1' });
    expect(keys.headers['set-cookie']).toBeUndefined();
    expect(keys.headers['cache-control']).toBe('public, max-age=300');
  });

  it('answers for unknown or refused paths are not kept either', async () => {
    expect((await get('/nothing/here.txt')).headers['cache-control'] ?? 'none').not.toMatch(/max-age=[1-9]|public/);
    const traversal = await get('/media/../secret.txt');
    expect(traversal.status).toBe(404);
    expect(traversal.headers['cache-control']).toBe('no-store');
    expect((await get('/media/home/missing.webp')).headers['cache-control']).toBe('no-store');
  });

  // Last: looks back over every answer this file received.
  it('no answer a shared cache may store ever sets a cookie', () => {
    expect(seen.length).toBeGreaterThan(30);
    const offenders = seen.filter(({ answer }) => answer.headers['set-cookie'] !== undefined && sharedCacheMayStore(answer)).map(({ target }) => target);
    expect(offenders).toEqual([]);
  });
});
