// The XSRF signed double submit and the Origin check: a forged write answers 419/403 and changes nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMachineApiPath } from '../../../server/auth/csrf.ts';
import { sessions } from '../../../server/db/schema.ts';
import { createClient, createUser, DEFAULT_TEST_PASSWORD, login } from '../../helpers/auth.ts';
import { solveBotChallenge } from '../../helpers/botcheck.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext();
});
afterEach(() => ctx.cleanup());

const sessionCount = () => ctx.db.select().from(sessions).all().length;
const credentials = { email: 'reader@example.test', password: DEFAULT_TEST_PASSWORD, remember_me: false };
/** The login payload with a fresh bot-check token (each token works once). */
const withBotToken = async () => ({ ...credentials, g_token: await solveBotChallenge(ctx.app) });

describe('GET /sanctum/csrf-cookie', () => {
  it('answers 204 with a readable, Lax, site-wide XSRF-TOKEN cookie', async () => {
    const response = await ctx.app.request('/sanctum/csrf-cookie');
    expect(response.status).toBe(204);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('XSRF-TOKEN='));
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/^XSRF-TOKEN=[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).not.toMatch(/HttpOnly/i);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it('marks the cookie Secure when the site is served over https', async () => {
    const secure = createTestContext({ env: { SITE_URL: 'https://www.example.test' } });
    try {
      const cookies = (await secure.app.request('/sanctum/csrf-cookie')).headers.getSetCookie();
      expect(cookies.find((line) => line.startsWith('XSRF-TOKEN='))).toMatch(/; Secure/);
      // The visitor value the token is bound to cannot be planted by a sibling subdomain: __Host- prefix.
      expect(cookies.find((line) => line.startsWith('__Host-xsrf_visitor='))).toMatch(/; Path=\/.*; HttpOnly; Secure/);
    } finally {
      secure.cleanup();
    }
  });

  it('gives different visitors different tokens and keeps a visitor’s token stable', async () => {
    const first = createClient(ctx.app);
    const second = createClient(ctx.app);
    await first.fetchCsrfCookie();
    await second.fetchCsrfCookie();
    expect(first.xsrf).not.toBe(second.xsrf);
    const before = first.xsrf;
    await first.fetchCsrfCookie();
    expect(first.xsrf).toBe(before);
  });
});

describe('csrfProtection', () => {
  beforeEach(async () => {
    await createUser(ctx, { email: credentials.email });
  });

  it('refuses a login without the X-XSRF-TOKEN header with 419 and creates no session', async () => {
    const client = createClient(ctx.app);
    await client.fetchCsrfCookie();
    const response = await client.request('POST', '/api/auth/login', credentials, { headers: { 'X-XSRF-TOKEN': null } });
    expect(response.status).toBe(419);
    expect(await response.json()).toEqual({ message: 'CSRF token mismatch.' });
    expect(response.headers.getSetCookie().some((line) => line.startsWith('session='))).toBe(false);
    expect(sessionCount()).toBe(0);
  });

  it('refuses a wrong header value with 419', async () => {
    const client = createClient(ctx.app);
    await client.fetchCsrfCookie();
    const response = await client.request('POST', '/api/auth/login', credentials, { headers: { 'X-XSRF-TOKEN': 'x'.repeat(43) } });
    expect(response.status).toBe(419);
    expect(sessionCount()).toBe(0);
  });

  it('refuses a header when there is no cookie to match', async () => {
    const response = await ctx.app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': 'y'.repeat(43) },
      body: JSON.stringify(credentials),
    });
    expect(response.status).toBe(419);
    expect(sessionCount()).toBe(0);
  });

  it('keeps the session when a forged logout arrives', async () => {
    const client = await login(ctx.app, credentials.email);
    const forged = await client.request('POST', '/api/auth/logout', undefined, { headers: { 'X-XSRF-TOKEN': 'forged' } });
    expect(forged.status).toBe(419);
    expect(sessionCount()).toBe(1);
    expect((await client.request('GET', '/api/user')).status).toBe(200);
  });

  it('checks PUT, PATCH and DELETE too, but not GET', async () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const response = await ctx.app.request('/api/user', { method });
      expect(response.status, method).toBe(419);
    }
    expect((await ctx.app.request('/api/user')).status).toBe(401);
  });

  it('refuses an equal cookie and header the server did not mint, signed in or not', async () => {
    const made = ['x'.repeat(43), `${'a'.repeat(22)}.${'b'.repeat(43)}`];
    for (const token of made) {
      const anonymous = await ctx.app.request('/api/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: `XSRF-TOKEN=${token}`, 'X-XSRF-TOKEN': token },
        body: JSON.stringify(await withBotToken()),
      });
      expect(anonymous.status, token).toBe(419);
    }
    expect(sessionCount()).toBe(0);
    const client = await login(ctx.app, credentials.email);
    for (const token of made) {
      const forged = await client.request('POST', '/api/auth/logout', undefined, {
        headers: { Cookie: replaceXsrf(client.cookieHeader, token), 'X-XSRF-TOKEN': token },
      });
      expect(forged.status, token).toBe(419);
    }
    expect(sessionCount()).toBe(1);
  });

  it('refuses a token minted for another session', async () => {
    await createUser(ctx, { email: 'other@example.test' });
    const victim = await login(ctx.app, credentials.email);
    const attacker = await login(ctx.app, 'other@example.test');
    const token = attacker.xsrf ?? '';
    // The attacker's own, valid token planted in the victim's browser, echoed in the header.
    const forged = await victim.request('POST', '/api/auth/logout', undefined, {
      headers: { Cookie: replaceXsrf(victim.cookieHeader, token), 'X-XSRF-TOKEN': token },
    });
    expect(forged.status).toBe(419);
    expect(sessionCount()).toBe(2);
    expect((await victim.request('POST', '/api/auth/logout')).status).toBe(204);
  });

  it('refuses a token minted for another visitor before sign-in (a planted cookie)', async () => {
    const victim = createClient(ctx.app);
    const attacker = createClient(ctx.app);
    await victim.fetchCsrfCookie();
    await attacker.fetchCsrfCookie();
    const token = attacker.xsrf ?? '';
    const planted = await victim.request('POST', '/api/auth/login', await withBotToken(), {
      headers: { Cookie: replaceXsrf(victim.cookieHeader, token), 'X-XSRF-TOKEN': token },
    });
    expect(planted.status).toBe(419);
    // Without the visitor cookie it was bound to, a token is worth nothing either.
    const bare = await ctx.app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: `XSRF-TOKEN=${token}`, 'X-XSRF-TOKEN': token },
      body: JSON.stringify(await withBotToken()),
    });
    expect(bare.status).toBe(419);
    expect(sessionCount()).toBe(0);
  });

  it('binds a new token to the session at login and to a fresh visitor at logout, so each next step works', async () => {
    const client = createClient(ctx.app);
    await client.fetchCsrfCookie();
    const beforeLogin = client.xsrf ?? '';
    expect((await client.request('POST', '/api/auth/login', await withBotToken())).status).toBe(200);
    expect(client.xsrf).not.toBe(beforeLogin);
    // The token seen before sign-in is no good after it.
    const stale = await client.request('POST', '/api/auth/logout', undefined, {
      headers: { Cookie: replaceXsrf(client.cookieHeader, beforeLogin), 'X-XSRF-TOKEN': beforeLogin },
    });
    expect(stale.status).toBe(419);
    const signedIn = client.xsrf ?? '';
    expect((await client.request('POST', '/api/auth/logout')).status).toBe(204);
    expect(client.xsrf).not.toBe(signedIn);
    // Signed out, the next sign-in goes through with the token logout gave, without a new csrf-cookie call.
    expect((await client.request('POST', '/api/auth/login', await withBotToken())).status).toBe(200);
  });

  it('gives a browser whose session ended server-side a visitor token on its next request', async () => {
    const client = await login(ctx.app, credentials.email);
    ctx.db.delete(sessions).run();
    expect((await client.request('GET', '/api/user')).status).toBe(401);
    expect(client.cookies.has('session')).toBe(false);
    expect((await client.request('POST', '/api/auth/login', await withBotToken())).status).toBe(200);
  });

  it('gives a browser whose session ended server-side a working token from /sanctum/csrf-cookie itself', async () => {
    const client = await login(ctx.app, credentials.email);
    ctx.db.delete(sessions).run();
    await client.fetchCsrfCookie();
    expect(client.cookies.has('session')).toBe(false);
    expect((await client.request('POST', '/api/auth/login', await withBotToken())).status).toBe(200);
  });

  it('re-mints at /sanctum/csrf-cookie a token that no longer fits the browser (its session cookie went away)', async () => {
    const client = await login(ctx.app, credentials.email);
    // The browser dropped the session cookie at its close; the token (bound to that session) stayed.
    client.cookies.delete('session');
    client.cookies.delete('signed_in');
    expect((await client.request('POST', '/api/auth/login', await withBotToken())).status).toBe(419);
    await client.fetchCsrfCookie();
    expect((await client.request('POST', '/api/auth/login', await withBotToken())).status).toBe(200);
  });

  it('lets the real client through', async () => {
    const client = createClient(ctx.app);
    await client.fetchCsrfCookie();
    const response = await client.request('POST', '/api/auth/login', await withBotToken());
    expect(response.status).toBe(200);
  });
});

/** A Cookie header with the XSRF-TOKEN value swapped for `token`. */
function replaceXsrf(cookieHeader: string, token: string): string {
  return cookieHeader.replace(/XSRF-TOKEN=[^;]*/, `XSRF-TOKEN=${token}`);
}

describe('originCheck', () => {
  beforeEach(async () => {
    await createUser(ctx, { email: credentials.email });
  });

  it('answers 403 to a foreign Origin even with a valid XSRF token, and logs nobody in', async () => {
    const client = createClient(ctx.app);
    await client.fetchCsrfCookie();
    const response = await client.request('POST', '/api/auth/login', credentials, { headers: { Origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: 'Cross-origin request refused.' });
    expect(sessionCount()).toBe(0);
  });

  it('answers 403 to a foreign Origin on reads too', async () => {
    const client = await login(ctx.app, credentials.email);
    const response = await client.request('GET', '/api/user', undefined, { headers: { Origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
    expect(await response.text()).not.toContain(credentials.email);
  });

  it('treats the opaque origin "null" and look-alike origins as foreign', async () => {
    for (const origin of ['null', 'http://localhost:4321.evil.example', 'https://localhost:4321', 'http://localhost:4322', 'javascript:alert(1)']) {
      const response = await ctx.app.request('/sanctum/csrf-cookie', { headers: { Origin: origin } });
      expect(response.status, origin).toBe(403);
    }
  });

  it('allows the configured site origin, the origin the request was addressed to, and no Origin at all', async () => {
    // app.request() addresses http://localhost; SITE_URL in tests is http://localhost:4321.
    for (const origin of ['http://localhost:4321', 'http://LOCALHOST:4321', 'http://localhost', undefined]) {
      const client = createClient(ctx.app);
      await client.fetchCsrfCookie();
      const headers: Record<string, string> = origin === undefined ? {} : { Origin: origin };
      const response = await client.request('POST', '/api/auth/login', await withBotToken(), { headers });
      expect(response.status, String(origin)).toBe(200);
    }
  });

  it('ignores X-Forwarded-Host unless TRUST_PROXY is set', async () => {
    const forged = await ctx.app.request('/sanctum/csrf-cookie', {
      headers: { Origin: 'https://evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' },
    });
    expect(forged.status).toBe(403);

    const proxied = createTestContext({ env: { TRUST_PROXY: '1', SITE_URL: 'https://www.example.test' } });
    try {
      const viaProxy = await proxied.app.request('/sanctum/csrf-cookie', {
        headers: { Origin: 'https://alias.example.test', 'X-Forwarded-Host': 'alias.example.test', 'X-Forwarded-Proto': 'https' },
      });
      expect(viaProxy.status).toBe(204);
      const foreign = await proxied.app.request('/sanctum/csrf-cookie', {
        headers: { Origin: 'https://evil.example', 'X-Forwarded-Host': 'alias.example.test', 'X-Forwarded-Proto': 'https' },
      });
      expect(foreign.status).toBe(403);
    } finally {
      proxied.cleanup();
    }
  });
});

describe('the software’s licensing API (docs/licensing.md)', () => {
  const post = (path: string, headers: Record<string, string> = {}) =>
    ctx.app.request(path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: '{}' });

  it('is exempt from both checks: no cookie, no header, a foreign Origin', async () => {
    for (const path of ['/api/licensing/v1/activate', '/api/licensing/v1/validate', '/api/licensing/v1/deactivate']) {
      expect((await post(path, { Origin: 'https://evil.example' })).status, path).toBe(422);
    }
  });

  it('is exempt for exactly that prefix: look-alikes and other versions still answer 419 or 403', async () => {
    for (const path of [
      '/api/licensing/v1',
      '/api/licensing/v1x/activate',
      '/api/licensing/v2/activate',
      '/api/licensing/activate',
      '/api/Licensing/v1/activate',
    ]) {
      expect((await post(path)).status, path).toBe(419);
      expect((await post(path, { Origin: 'https://evil.example' })).status, path).toBe(403);
    }
    // A path that only starts with the prefix but climbs out of it is never exempt.
    expect(isMachineApiPath('/api/licensing/v1/../../auth/login')).toBe(false);
    expect(isMachineApiPath('/api/licensing/v1/./activate')).toBe(false);
    expect(isMachineApiPath('/api/v1/../auth/login')).toBe(false);
    expect(isMachineApiPath('/api/licensing/v1/activate')).toBe(true);
    expect(isMachineApiPath('/api/updates/v1/latest')).toBe(true);
    expect(isMachineApiPath('/api/v1/licenses')).toBe(true);
    expect(isMachineApiPath('/api/v1')).toBe(false);
    expect(isMachineApiPath('/api/v10/licenses')).toBe(false);
  });
});
