// Issue 17 item 6: HSTS on every answer of an https site (API, static pages, media, plain answers) and
// `Cache-Control: no-store` on every private API answer, while public cacheable answers keep theirs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictTransportSecurity } from '../../../server/http/security-headers.ts';
import { createHttpServer } from '../../../server/server.ts';
import { loadStaticSite, type StaticSite } from '../../../server/static/static-site.ts';
import { createUser, login, type LoggedInClient } from '../../helpers/auth.ts';
import { listen, rawRequest } from '../../helpers/raw-http.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';
import { writeFixtureBuild } from '../static/fixture-build.ts';

const HSTS = 'max-age=31536000; includeSubDomains';
const DATA_POLICY = "default-src 'none'; frame-ancestors 'none'";

describe('Strict-Transport-Security', () => {
  let ctx: TestContext;
  let site: StaticSite | null;
  let server: Awaited<ReturnType<typeof listen>>;

  beforeAll(async () => {
    ctx = createTestContext({ env: { SITE_URL: 'https://example.com' } });
    const { buildDir, mediaDir } = writeFixtureBuild(ctx.dataDir);
    site = await loadStaticSite(buildDir);
    server = await listen(createHttpServer({ app: ctx.app, getSite: () => site, mediaDir, strictTransportSecurity: strictTransportSecurity(ctx.config) }));
  });
  afterAll(async () => {
    await server.close();
    ctx.cleanup();
  });

  it('is sent on every kind of answer of an https site', async () => {
    for (const target of ['/', '/_astro/app.Ab12Cd.js', '/media/missing.png', '/no-such-page/../../etc', '/api/user', '/api/licensing/v1/keys']) {
      const answer = await rawRequest(server.port, target);
      expect(answer.headers['strict-transport-security'], target).toBe(HSTS);
    }
    const page = await rawRequest(server.port, '/');
    const unchanged = await rawRequest(server.port, '/', { headers: { 'If-None-Match': page.headers.etag ?? '' } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers['strict-transport-security']).toBe(HSTS);
  });

  it('comes with the Hono app itself, without the raw listener', async () => {
    const answer = await ctx.app.request('/api/user');
    expect(answer.headers.get('Strict-Transport-Security')).toBe(HSTS);
  });

  it('is not sent for a plain http site', async () => {
    const plain = createTestContext();
    try {
      expect(strictTransportSecurity(plain.config)).toBeUndefined();
      expect((await plain.app.request('/api/user')).headers.get('Strict-Transport-Security')).toBeNull();
    } finally {
      plain.cleanup();
    }
  });
});

describe('Cache-Control on API answers', () => {
  let ctx: TestContext;
  let admin: LoggedInClient;

  beforeAll(async () => {
    ctx = createTestContext();
    await createUser(ctx, { email: 'admin@example.com', role: 'admin' });
    admin = await login(ctx.app, 'admin@example.com');
  });
  afterAll(() => ctx.cleanup());

  it('is no-store for every API answer to an admin (the user, admin lists, posts with drafts)', async () => {
    // Every parameterless GET of the API, read from the app's route table so a new list is covered; only
    // the public descriptions name their own policy: the licensing and update-signing JWKS and the machine APIs' OpenAPI
    // document and reference page (docs/integrations.md#openapi).
    const publicDescriptions = new Set(['/api/licensing/v1/keys', '/api/updates/v1/keys', '/api/openapi.json', '/api/reference']);
    const targets = ['/api/news/getposts'];
    for (const route of ctx.app.routes) {
      if (route.method === 'GET' && route.path.startsWith('/api/') && !/[:*]/.test(route.path) && !publicDescriptions.has(route.path)) targets.push(route.path);
    }
    expect(targets).toEqual(expect.arrayContaining(['/api/user', '/api/admin/banned-domains']));
    for (const target of new Set(targets)) {
      const answer = await admin.request('GET', target);
      expect(answer.status, target).toBeLessThan(500);
      expect(answer.headers.get('Cache-Control'), target).toBe('no-store');
    }
  });

  it('is no-store for anonymous API answers that name no policy', async () => {
    expect((await ctx.app.request('/api/user')).headers.get('Cache-Control')).toBe('no-store');
  });

  it('keeps the public cache policy of the licensing and update-signing JWKS and of the OpenAPI document', async () => {
    expect((await ctx.app.request('/api/licensing/v1/keys')).headers.get('Cache-Control')).toBe('public, max-age=300');
    expect((await ctx.app.request('/api/updates/v1/keys')).headers.get('Cache-Control')).toBe('public, max-age=300');
    expect((await ctx.app.request('/api/openapi.json')).headers.get('Cache-Control')).toBe('public, max-age=300');
  });
});

describe('over HTTP and through app.request()', () => {
  // Served over HTTP the headers are put on Node's response as its head is written; app.request() has
  // none, and gets them on the answer. Both must give every answer the same ones.
  let ctx: TestContext;
  let server: Awaited<ReturnType<typeof listen>>;
  let signedIn: string;

  beforeAll(async () => {
    ctx = createTestContext({ env: { SITE_URL: 'https://example.com' } });
    await createUser(ctx, { email: 'reader@example.com' });
    signedIn = (await login(ctx.app, 'reader@example.com')).cookieHeader;
    const { buildDir, mediaDir } = writeFixtureBuild(ctx.dataDir);
    const site = await loadStaticSite(buildDir);
    server = await listen(createHttpServer({ app: ctx.app, getSite: () => site, mediaDir }));
  });
  afterAll(async () => {
    await server.close();
    ctx.cleanup();
  });

  const POLICY_HEADERS = [
    'x-content-type-options',
    'referrer-policy',
    'x-frame-options',
    'cross-origin-opener-policy',
    'permissions-policy',
    'strict-transport-security',
    'content-security-policy',
    'cache-control',
  ];

  it('gives a JSON answer the data headers only, over HTTP and through the app', async () => {
    const overHttp = await rawRequest(server.port, '/api/licensing/v1/validate', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ key: 'not-a-key' }),
    });
    const throughApp = await ctx.app.request('/api/user');
    expect(overHttp.headers['content-type']).toMatch(/^application\/json/);
    for (const headers of [overHttp.headers, Object.fromEntries(throughApp.headers)]) {
      expect(headers['content-security-policy']).toBe(DATA_POLICY);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['x-frame-options']).toBe('DENY');
      expect(headers['strict-transport-security']).toBe(HSTS);
      // Document-only policies say nothing for data, so they are not sent.
      for (const name of ['referrer-policy', 'permissions-policy', 'cross-origin-opener-policy']) expect(headers[name], name).toBeUndefined();
    }
  });

  it('gives every kind of answer the same security headers and cache policy', async () => {
    const cases: Array<{ target: string; cookie?: string; expect: Record<string, string | RegExp> }> = [
      // JSON is data: OWASP's set for REST answers, a policy that allows nothing (docs/decisions/0074-data-answer-headers.md).
      {
        target: '/api/user',
        expect: { 'cache-control': 'no-store', 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'content-security-policy': DATA_POLICY },
      },
      { target: '/api/user', cookie: signedIn, expect: { 'cache-control': 'no-store' } },
      { target: '/api/licensing/v1/keys', expect: { 'cache-control': 'public, max-age=300', 'strict-transport-security': HSTS } },
      // A public answer that has to clear an ended session's cookies is no longer shareable.
      { target: '/api/openapi.json', cookie: 'session=ended-or-forged-token; signed_in=1', expect: { 'cache-control': 'no-store' } },
      { target: '/api/openapi.json', expect: { 'cache-control': 'public, max-age=300' } },
      // The API reference page names its own Content-Security-Policy, which is kept, beside the document headers.
      {
        target: '/api/reference',
        expect: { 'content-security-policy': /style-src/, 'referrer-policy': 'strict-origin-when-cross-origin', 'cross-origin-opener-policy': 'same-origin' },
      },
      // A page the app renders (the mailings' unsubscribe page) gets the site's page policy.
      { target: '/api/mailing/unsubscribe', expect: { 'content-security-policy': /^default-src 'self'/, 'permissions-policy': /camera=\(\)/ } },
      { target: '/sanctum/csrf-cookie', expect: { 'cache-control': 'no-store' } },
      { target: '/api/no-such-route', expect: { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } },
      // A signed-in reader's redirect from an unknown page is private too.
      { target: '/no/such/page', cookie: signedIn, expect: { 'cache-control': 'no-store' } },
    ];
    for (const { target, cookie, expect: expected } of cases) {
      const headers = cookie ? { Cookie: cookie } : undefined;
      const overHttp = await rawRequest(server.port, target, { headers });
      const throughApp = await ctx.app.request(target, { headers });
      const label = `${target}${cookie ? ' with a cookie' : ''}`;
      expect(overHttp.status, label).toBe(throughApp.status);
      // The reference page's nonce is new in every answer.
      const policyOf = (value: string | string[] | null | undefined) => (value == null ? undefined : String(value).replace(/'nonce-[^']+'/, "'nonce-…'"));
      for (const name of POLICY_HEADERS) expect(policyOf(overHttp.headers[name]), `${label}: ${name}`).toBe(policyOf(throughApp.headers.get(name)));
      for (const [name, value] of Object.entries(expected)) {
        if (value instanceof RegExp) expect(overHttp.headers[name], `${label}: ${name}`).toMatch(value);
        else expect(overHttp.headers[name], `${label}: ${name}`).toBe(value);
      }
    }
  });
});
