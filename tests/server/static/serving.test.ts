// The static fast path on a real port: encodings, validators, cache policy, CSP with the page's inline
// script hashes, and every traversal trick we know of answering 404 without leaking a byte.
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../server/server.ts';
import { loadStaticSite, type StaticSite } from '../../../server/static/static-site.ts';
import { listen, rawRequest } from '../../helpers/raw-http.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';
import { INLINE_MODULE, INLINE_SCRIPT, SECRET, writeFixtureBuild } from './fixture-build.ts';

let ctx: TestContext;
let site: StaticSite | null;
let server: Awaited<ReturnType<typeof listen>>;
const get = (target: string, headers: Record<string, string> = {}) => rawRequest(server.port, target, { headers });

beforeAll(async () => {
  ctx = createTestContext();
  const { buildDir, mediaDir } = writeFixtureBuild(ctx.dataDir);
  site = await loadStaticSite(buildDir);
  server = await listen(createHttpServer({ app: ctx.app, getSite: () => site, mediaDir }));
});
afterAll(async () => {
  await server.close();
  ctx.cleanup();
});

const sha256 = (text: string) => `'sha256-${crypto.createHash('sha256').update(text).digest('base64')}'`;

describe('pages', () => {
  it('serves / and directory-format pages with and without the trailing slash', async () => {
    for (const target of ['/', '/index.html', '/?utm=1']) expect((await get(target)).text).toContain('Home page');
    for (const target of ['/news', '/news/', '/news/index.html']) expect((await get(target)).text).toContain('News page');
    expect((await get('/news/events')).text).toContain('Events');
  });

  it('sends HTML with no-cache, a strong ETag, the security headers and a CSP naming its inline scripts', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBeDefined();
    const csp = String(page.headers['content-security-policy'] ?? '');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain(sha256(INLINE_SCRIPT));
    expect(csp).toContain(sha256(INLINE_MODULE));
    expect(csp).not.toContain("'unsafe-inline' 'sha256"); // script-src never allows arbitrary inline code
    expect(csp.match(/script-src [^;]*/)?.[0]).not.toContain('unsafe-inline');
    // The JSON-LD data block does not run and gets no hash: exactly the two scripts above.
    expect(csp.match(/'sha256-/g)).toHaveLength(2);
  });

  it('caches hashed /_astro assets for a year as immutable', async () => {
    const asset = await get('/_astro/app.Ab12Cd.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/robots.txt')).headers['cache-control']).toBe('no-cache');
  });
});

describe('content negotiation', () => {
  it('prefers brotli, then gzip, then identity, always with Vary: Accept-Encoding', async () => {
    const plain = await get('/');
    const br = await get('/', { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await get('/', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect((await get('/', { 'Accept-Encoding': 'br;q=0, gzip;q=0.5' })).headers['content-encoding']).toBe('gzip');
    expect((await get('/', { 'Accept-Encoding': 'identity' })).headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const answer of [plain, br, gz]) expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(gz.body.length + 50);
    expect(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size).toBe(3);
  });

  it('sends incompressible files as they are, without Vary', async () => {
    const image = await get('/_astro/logo.Zz99.png', { 'Accept-Encoding': 'br, gzip' });
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.headers.vary).toBeUndefined();
  });
});

describe('the headers of each answer', () => {
  it('names every page answer, 200, 304 and HEAD, with its own request id and the process that gave it', async () => {
    const named = await listen(createHttpServer({ app: ctx.app, getSite: () => site, mediaDir: ctx.config.uploadsDir, servedBy: 'worker-7' }));
    try {
      const first = await rawRequest(named.port, '/news/');
      const again = await rawRequest(named.port, '/news/', { headers: { 'If-None-Match': first.headers.etag ?? '' } });
      const head = await rawRequest(named.port, '/news/', { method: 'HEAD', headers: { 'Accept-Encoding': 'br' } });
      expect([first.status, again.status, head.status]).toEqual([200, 304, 200]);
      const ids = [first, again, head].map((answer) => answer.headers['x-request-id']);
      // Once each: Node would join a repeated header's values with ", ", which this would not match.
      for (const id of ids) expect(id).toMatch(/^[\w-]+-[0-9a-z]+$/);
      expect(new Set(ids).size).toBe(3);
      for (const answer of [first, again, head]) expect(answer.headers['x-served-by']).toBe('worker-7');
      // The prepared headers are all still there, once each, beside the request's own.
      expect(first.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(head.headers['content-encoding']).toBe('br');
    } finally {
      await named.close();
    }
  });
});

describe('validators and HEAD', () => {
  it('answers 304 without a body to a matching If-None-Match, for any encoding and weak form', async () => {
    const br = await get('/news/', { 'Accept-Encoding': 'br' });
    const etag = br.headers.etag ?? '';
    for (const validator of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const answer = await get('/news/', { 'Accept-Encoding': 'br', 'If-None-Match': validator });
      expect(answer.status).toBe(304);
      expect(answer.body.length).toBe(0);
      expect(answer.headers['cache-control']).toBe('no-cache');
    }
    expect((await get('/news/', { 'If-None-Match': '"stale"' })).status).toBe(200);
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const getAnswer = await get('/');
    const head = await rawRequest(server.port, '/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(getAnswer.headers['content-length']);
    expect(head.headers.etag).toBe(getAnswer.headers.etag);
  });
});

describe('paths outside the build', () => {
  const attempts = [
    '/../secret.txt',
    '/../../secret.txt',
    '/news/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/%2E%2E/%2E%2E/secret.txt',
    '/..%2fsecret.txt',
    '/..%2Fsecret.txt',
    '/%2e%2e%2f%2e%2e%2fsecret.txt',
    '/news/..%5c..%5csecret.txt',
    '/..\\..\\secret.txt',
    '/%00/secret.txt',
    '/index.html%00.txt',
    '/./index.html',
    '/%c0%ae%c0%ae/secret.txt',
  ];
  for (const target of attempts) {
    it(`refuses ${target}`, async () => {
      const answer = await get(target);
      expect([400, 404]).toContain(answer.status);
      expect(answer.text).not.toContain(SECRET);
    });
  }

  it('never lists a directory: one without an index goes home like any unknown path', async () => {
    for (const target of ['/_astro/', '/_astro', '/docs/', '/docs']) {
      const answer = await get(target);
      expect(answer.status).toBe(302);
      expect(answer.headers.location).toBe('/');
      expect(answer.text).not.toContain('app.Ab12Cd.js');
    }
    expect((await get('/docs/readme.txt')).status).toBe(200);
  });

  it('redirects any other path to /', async () => {
    const answer = await get('/no/such/page');
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/');
  });

  it('leaves /api to the API, even when no page matches', async () => {
    const answer = await get('/api/admin/publish');
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.text)).toEqual({ message: 'Unauthenticated.' });
  });
});

describe('media', () => {
  it('streams uploads with a long cache and a sandboxing CSP', async () => {
    const image = await get('/media/home/pic.webp');
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(image.text).toContain('fake image bytes');
    expect(image.headers['content-security-policy']).toContain('sandbox');
    expect((await get('/media/home/pic.webp', { 'If-None-Match': image.headers.etag ?? '' })).status).toBe(304);
    const head = await rawRequest(server.port, '/media/home/pic.webp', { method: 'HEAD' });
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(image.body.length));
  });

  it('answers single byte ranges for video players', async () => {
    const part = await get('/media/home/pic.webp', { Range: 'bytes=0-3' });
    expect(part.status).toBe(206);
    expect(part.text).toBe('RIFF');
    expect(part.headers['content-range']).toMatch(/^bytes 0-3\/\d+$/);
    const unsatisfiable = await get('/media/home/pic.webp', { Range: 'bytes=9999-' });
    expect(unsatisfiable.status).toBe(416);
    expect(unsatisfiable.headers['content-range']).toMatch(/^bytes \*\/\d+$/);
  });

  it('reads Range as downloads do: a backwards or multiple range is ignored and the whole file sent (RFC 9110 14.2)', async () => {
    const whole = await get('/media/home/pic.webp');
    for (const range of ['bytes=5-3', 'bytes=0-1,4-5', 'bytes=x-y']) {
      const answer = await get('/media/home/pic.webp', { Range: range });
      expect(answer.status, range).toBe(200);
      expect(answer.headers['content-range'], range).toBeUndefined();
      expect(answer.text, range).toBe(whole.text);
    }
  });

  it('offers non-media types only as downloads and keeps SVG scripts sandboxed', async () => {
    expect((await get('/media/home/tool.exe')).headers['content-disposition']).toBe('attachment');
    expect((await get('/media/home/drawing.svg')).headers['content-security-policy']).toContain("default-src 'none'");
  });

  for (const target of [
    '/media/../secret.txt',
    '/media/%2e%2e/secret.txt',
    '/media/..%2f..%2fsecret.txt',
    '/media/home/..%5c..%5c..%5csecret.txt',
    '/media/.hidden',
    '/media/',
    '/media/home',
    '/media/home/missing.webp',
  ]) {
    it(`refuses ${target}`, async () => {
      const answer = await get(target);
      expect(answer.status).toBe(404);
      expect(answer.text).not.toContain(SECRET);
    });
  }
});

describe('before the first build', () => {
  it('answers pages with 503, Retry-After and a script-free refreshing page', async () => {
    const live = site;
    site = null;
    try {
      const answer = await get('/news/');
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('5');
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.text).toContain('The site is being built');
      expect(answer.text).toContain('http-equiv="refresh"');
      expect(answer.text).not.toContain('<script');
      expect((await get('/api/admin/publish')).status).toBe(401);
    } finally {
      site = live;
    }
  });
});
