// nginx answers every kind of file of the build as the Node server does (docs/decisions/0032-nginx-front.md):
// the same bytes, the same content type, cache policy and security headers (the per-page CSP included), in
// the encoding asked for; what is not a file of the build reaches Node and gets Node's own answer.
import { expect, test } from '@playwright/test';
import { NGINX_ORIGIN, NODE_ORIGIN } from './env.ts';
import { rawGet, type RawAnswer } from './raw-http.ts';

// Headers about the connection or the file's identity on disk, which legitimately differ between the two.
const TRANSPORT = new Set([
  'date',
  'connection',
  'keep-alive',
  'server',
  'etag',
  'last-modified',
  'accept-ranges',
  'content-length',
  'transfer-encoding',
  'x-served-by',
]);

function policyHeaders(answer: RawAnswer): Record<string, string> {
  return Object.fromEntries(
    Object.entries(answer.headers)
      .filter(([name]) => !TRANSPORT.has(name))
      // A request id is new for every request: both must carry one, its value cannot match.
      .map(([name, value]): [string, string] => [name, name === 'x-request-id' && value ? 'present' : String(value)])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

async function both(path: string, headers: Record<string, string> = {}) {
  const [viaNginx, viaNode] = await Promise.all([rawGet(NGINX_ORIGIN, path, headers), rawGet(NODE_ORIGIN, path, headers)]);
  return { viaNginx, viaNode };
}

/** Paths of every kind the build holds, read from the live site itself. */
async function samplePaths(): Promise<string[]> {
  const home = (await rawGet(NODE_ORIGIN, '/')).body.toString('utf8');
  const news = (await rawGet(NODE_ORIGIN, '/news/')).body.toString('utf8');
  const asset = /(?:src|href)="(\/_astro\/[^"]+\.(?:js|css))"/.exec(home)?.[1];
  const post = /href="(\/news\/[^"/]+\/?)"/.exec(news)?.[1];
  expect(asset, 'a hashed asset linked from the home page').toBeDefined();
  expect(post, 'a post linked from /news/').toBeDefined();
  return [
    '/',
    '/index.html',
    '/news/',
    '/news',
    '/news/index.html',
    post!,
    // A page with islands: its policy names its inline scripts' hashes.
    '/contact/',
    '/contact',
    '/dashboard/',
    asset!,
    '/favicon.svg',
    '/robots.txt',
    '/sitemap.xml',
    '/pagefind/pagefind.js',
  ];
}

test('every kind of file of the build: nginx serves it from disk with the same bytes and headers as Node', async () => {
  for (const path of await samplePaths()) {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const { viaNginx, viaNode } = await both(path, { 'Accept-Encoding': encoding });
      const label = `${path} (${encoding})`;
      expect(viaNginx.status, label).toBe(200);
      expect(viaNginx.headers['x-served-by'], `${label} comes from disk, not from Node`).toBe('nginx');
      expect(viaNginx.body.equals(viaNode.body), `${label} same bytes`).toBe(true);
      expect(policyHeaders(viaNginx), label).toEqual(policyHeaders(viaNode));
    }
  }
});

test('pages are compressed ahead of time, revalidated with an ETag, and hashed assets are immutable', async () => {
  const page = await rawGet(NGINX_ORIGIN, '/news/', { 'Accept-Encoding': 'gzip, deflate, br' });
  expect(page.headers['content-encoding']).toBe('br');
  expect(page.headers['cache-control']).toBe('no-cache');
  const etag = page.headers.etag;
  expect(etag).toBeTruthy();
  const again = await rawGet(NGINX_ORIGIN, '/news/', { 'Accept-Encoding': 'gzip, deflate, br', 'If-None-Match': etag! });
  expect(again.status).toBe(304);
  // A 304 carries the same policy as the page it stands for.
  expect(again.headers['content-security-policy']).toBe(page.headers['content-security-policy']);
  expect((await rawGet(NGINX_ORIGIN, '/news/', { 'Accept-Encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');

  const home = (await rawGet(NGINX_ORIGIN, '/')).body.toString('utf8');
  const asset = /(?:src|href)="(\/_astro\/[^"]+\.(?:js|css))"/.exec(home)![1]!;
  expect((await rawGet(NGINX_ORIGIN, asset)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
});

test('what is not a file of the build reaches Node and gets its answer', async () => {
  // Unknown pages (Node redirects them to its not-found page), the stored compressed forms, the API, the session cookie.
  for (const path of ['/no-such-page', '/news/no-such-post/', '/index.html.br', '/api/user', '/sanctum/csrf-cookie']) {
    const { viaNginx, viaNode } = await both(path);
    expect(viaNginx.headers['x-served-by'], path).toBeUndefined();
    expect(viaNginx.status, path).toBe(viaNode.status);
    const { 'set-cookie': _nginxCookies, ...nginxHeaders } = policyHeaders(viaNginx);
    const { 'set-cookie': _nodeCookies, ...nodeHeaders } = policyHeaders(viaNode);
    expect(nginxHeaders, path).toEqual(nodeHeaders);
  }
  // Metrics are never reachable through the front, whatever the server does with them.
  expect((await rawGet(NGINX_ORIGIN, '/metrics')).status).toBe(404);
});

// Last in the suite: it spends the sign-in flood allowance of 127.0.0.1 for a few seconds.
test('the front refuses sign-in floods and oversized sign-in bodies before they reach Node', async () => {
  const big = await fetch(`${NGINX_ORIGIN}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: 'x'.repeat(65 * 1024 + 1),
  });
  expect(big.status).toBe(413);
  expect(big.headers.get('server')).toBe('nginx');

  const statuses = await Promise.all(Array.from({ length: 60 }, () => rawGet(NGINX_ORIGIN, '/api/auth/no-such-route').then((answer) => answer.status)));
  expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
  // The rest reached Node, which answered them itself.
  expect(statuses.filter((status) => status !== 429).length).toBeGreaterThanOrEqual(20);
});
