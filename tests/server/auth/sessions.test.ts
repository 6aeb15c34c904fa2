// Session lifetime, sliding renewal, rotation, logout and the cookies that carry them (fake clock).
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessions, users } from '../../../server/db/schema.ts';
import { createSession, generateSessionToken, invalidateUserSessions, sessionIdFromToken, validateSessionToken } from '../../../server/auth/sessions.ts';
import { createClient, createUser, login, type TestClient } from '../../helpers/auth.ts';
import { solveBotChallenge } from '../../helpers/botcheck.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const EMAIL = 'sam@example.test';

let ctx: TestContext;
beforeEach(async () => {
  ctx = createTestContext({ fakeClock: true });
  await createUser(ctx, { email: EMAIL });
});
afterEach(() => ctx.cleanup());

const currentUserStatus = async (client: TestClient) => (await client.request('GET', '/api/user')).status;
const setCookieLine = (response: Response, name: string) => response.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));

async function loginResponse(rememberMe: boolean) {
  const client = createClient(ctx.app);
  await client.fetchCsrfCookie();
  const response = await client.request('POST', '/api/auth/login', {
    email: EMAIL,
    password: 'correct horse battery staple',
    g_token: await solveBotChallenge(ctx.app),
    remember_me: rememberMe,
  });
  expect(response.status).toBe(200);
  return { client, response };
}

describe('tokens', () => {
  it('are at least 160 random bits and stored only as their SHA-256', async () => {
    const token = generateSessionToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 43 base64url characters = 256 bits
    expect(new Set(Array.from({ length: 200 }, generateSessionToken)).size).toBe(200);

    const client = await login(ctx.app, EMAIL);
    const cookieToken = client.cookies.get('session');
    expect(cookieToken).toBeDefined();
    const [row] = ctx.db.select().from(sessions).all();
    expect(row?.id).toBe(sessionIdFromToken(cookieToken ?? ''));
    expect(row?.id).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(ctx.db.select().from(sessions).all())).not.toContain(cookieToken);
  });
});

describe('cookies', () => {
  it('without remember me: a browser-session cookie (no Max-Age, no Expires), HttpOnly, Lax', async () => {
    const { response } = await loginResponse(false);
    const cookie = setCookieLine(response, 'session');
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Max-Age|Expires/i);
    expect(cookie).not.toMatch(/Secure/);
  });

  it('with remember me: Max-Age of 30 days', async () => {
    const { response } = await loginResponse(true);
    expect(setCookieLine(response, 'session')).toMatch(/; Max-Age=2592000(;|$)/);
  });

  it('over https: Secure, with the __Host- prefix', async () => {
    const secure = createTestContext({ fakeClock: true, env: { SITE_URL: 'https://www.example.test' } });
    try {
      await createUser(secure, { email: EMAIL });
      const client = await login(secure.app, EMAIL, undefined, { rememberMe: true });
      expect(client.cookies.has('__Host-session')).toBe(true);
      expect(client.cookies.has('session')).toBe(false);
      expect((await client.request('GET', '/api/user')).status).toBe(200);
      const logout = await client.request('POST', '/api/auth/logout');
      expect(setCookieLine(logout, '__Host-session')).toMatch(/Max-Age=0.*Secure/);
    } finally {
      secure.cleanup();
    }
  });

  it('sets a readable signed_in hint while signed in and clears it at logout', async () => {
    const { client, response } = await loginResponse(true);
    const hint = setCookieLine(response, 'signed_in');
    expect(hint).toMatch(/^signed_in=1;/);
    expect(hint).not.toMatch(/HttpOnly/);
    expect(hint).toMatch(/Max-Age=2592000/);
    const logout = await client.request('POST', '/api/auth/logout');
    expect(setCookieLine(logout, 'signed_in')).toMatch(/Max-Age=0/);
    expect(client.cookies.has('signed_in')).toBe(false);
  });

  it('deletes an unknown session cookie and a hint that has no session', async () => {
    const bogus = await ctx.app.request('/api/user', { headers: { Cookie: 'session=not-a-real-token; signed_in=1' } });
    expect(bogus.status).toBe(401);
    expect(setCookieLine(bogus, 'session')).toMatch(/Max-Age=0/);
    expect(setCookieLine(bogus, 'signed_in')).toMatch(/Max-Age=0/);
    const orphanHint = await ctx.app.request('/api/user', { headers: { Cookie: 'signed_in=1' } });
    expect(setCookieLine(orphanHint, 'signed_in')).toMatch(/Max-Age=0/);
  });
});

describe('expiry and sliding renewal', () => {
  it('ends a browser session after 2 idle hours', async () => {
    const client = await login(ctx.app, EMAIL);
    ctx.advance(2 * HOUR - 1);
    expect(await currentUserStatus(createClientWith(client))).toBe(200);
    // That request renewed it: idle again for the full lifetime.
    ctx.advance(2 * HOUR - 1);
    expect(await currentUserStatus(client)).toBe(200);
    ctx.advance(2 * HOUR);
    const expired = await client.request('GET', '/api/user');
    expect(expired.status).toBe(401);
    expect(setCookieLine(expired, 'session')).toMatch(/Max-Age=0/);
    expect(ctx.db.select().from(sessions).all()).toHaveLength(0);
  });

  it('does not renew a session that has more than half its lifetime left', async () => {
    const client = await login(ctx.app, EMAIL);
    ctx.advance(30 * MINUTE);
    expect(await currentUserStatus(client)).toBe(200);
    // Not extended at 30 min, so 2 h after login it is gone.
    ctx.advance(90 * MINUTE);
    expect(await currentUserStatus(client)).toBe(401);
  });

  it('renews a remembered session past half-life and re-sends the cookie, within its absolute lifetime', async () => {
    // A 60-day absolute lifetime leaves room for the 30-day sliding expiry to move.
    ctx.cleanup();
    ctx = createTestContext({ fakeClock: true, env: { SESSION_REMEMBER_DAYS: '60' } });
    await createUser(ctx, { email: EMAIL });
    const client = await login(ctx.app, EMAIL, undefined, { rememberMe: true });
    ctx.advance(10 * DAY);
    const early = await client.request('GET', '/api/user');
    expect(early.status).toBe(200);
    expect(setCookieLine(early, 'session')).toBeUndefined();

    ctx.advance(10 * DAY); // day 20: less than half left
    const renewed = await client.request('GET', '/api/user');
    expect(renewed.status).toBe(200);
    expect(setCookieLine(renewed, 'session')).toMatch(/Max-Age=2592000/);
    expect(setCookieLine(renewed, 'signed_in')).toMatch(/Max-Age=2592000/);

    ctx.advance(29 * DAY); // day 49: alive only because of the renewal at day 20
    const capped = await client.request('GET', '/api/user');
    expect(capped.status).toBe(200);
    // Renewed again, but only up to the absolute end at day 60: the cookie says 11 days.
    expect(setCookieLine(capped, 'session')).toMatch(/Max-Age=950400(;|$)/);
    ctx.advance(11 * DAY - 1);
    expect(await currentUserStatus(client)).toBe(200);
    ctx.advance(1);
    expect(await currentUserStatus(client)).toBe(401);
  });

  it('ends a remembered session 30 days after sign-in even while in use', async () => {
    const client = await login(ctx.app, EMAIL, undefined, { rememberMe: true });
    for (let day = 1; day < 30; day++) {
      ctx.advance(DAY);
      const answer = await client.request('GET', '/api/user');
      expect(answer.status).toBe(200);
      // Nothing to extend: the sliding expiry already sits at the absolute end.
      expect(setCookieLine(answer, 'session')).toBeUndefined();
    }
    ctx.advance(DAY - 1);
    expect(await currentUserStatus(client)).toBe(200);
    ctx.advance(1);
    const ended = await client.request('GET', '/api/user');
    expect(ended.status).toBe(401);
    expect(setCookieLine(ended, 'session')).toMatch(/Max-Age=0/);
    expect(ctx.db.select().from(sessions).all()).toHaveLength(0);
  });

  it('ends a browser session 12 hours after sign-in even while in use', async () => {
    const client = await login(ctx.app, EMAIL);
    // A request every 61 minutes renews the 2-hour idle expiry each time...
    for (let elapsed = 61 * MINUTE; elapsed < 12 * HOUR; elapsed += 61 * MINUTE) {
      ctx.advance(61 * MINUTE);
      expect(await currentUserStatus(client)).toBe(200);
    }
    // ...but never past 12 hours after sign-in.
    const row = ctx.db.select().from(sessions).get();
    expect(row?.expires_at).toBe(row?.absolute_expires_at);
    ctx.advance((row?.absolute_expires_at ?? 0) - ctx.now() - 1);
    expect(await currentUserStatus(client)).toBe(200);
    ctx.advance(1);
    expect(await currentUserStatus(client)).toBe(401);
  });

  it('takes the absolute lifetimes from SESSION_REMEMBER_DAYS and SESSION_BROWSER_HOURS', async () => {
    const custom = createTestContext({ fakeClock: true, env: { SESSION_REMEMBER_DAYS: '7', SESSION_BROWSER_HOURS: '1' } });
    try {
      const user = await createUser(custom, { email: EMAIL });
      const browser = createSession(custom, user.id, { persistent: false });
      // The idle expiry (2 hours) is cut to the 1-hour absolute lifetime.
      expect(browser.session).toMatchObject({ expires_at: custom.now() + HOUR, absolute_expires_at: custom.now() + HOUR });
      const remembered = createSession(custom, user.id, { persistent: true });
      expect(remembered.session).toMatchObject({ expires_at: custom.now() + 7 * DAY, absolute_expires_at: custom.now() + 7 * DAY });
      custom.advance(HOUR);
      expect(validateSessionToken(custom, browser.token)).toBeNull();
      expect(validateSessionToken(custom, remembered.token)).not.toBeNull();
    } finally {
      custom.cleanup();
    }
  });

  it('ends an unused remembered session after 30 days', async () => {
    const client = await login(ctx.app, EMAIL, undefined, { rememberMe: true });
    ctx.advance(30 * DAY);
    expect(await currentUserStatus(client)).toBe(401);
  });
});

describe('rotation and logout', () => {
  it('issues a new token at every login and ends the session the browser had', async () => {
    const client = await login(ctx.app, EMAIL);
    const firstToken = client.cookies.get('session');
    const replay = createClient(ctx.app);
    replay.cookies.set('session', firstToken ?? '');

    const again = await client.request('POST', '/api/auth/login', {
      email: EMAIL,
      password: 'correct horse battery staple',
      g_token: await solveBotChallenge(ctx.app),
      remember_me: false,
    });
    expect(again.status).toBe(200);
    const secondToken = client.cookies.get('session');
    expect(secondToken).toBeDefined();
    expect(secondToken).not.toBe(firstToken);
    expect(await currentUserStatus(client)).toBe(200);
    expect(await currentUserStatus(replay)).toBe(401);
    expect(ctx.db.select().from(sessions).all()).toHaveLength(1);
  });

  it('rotates the XSRF token at login', async () => {
    const client = createClient(ctx.app);
    await client.fetchCsrfCookie();
    const before = client.xsrf;
    await client.request('POST', '/api/auth/login', { email: EMAIL, password: 'correct horse battery staple', g_token: await solveBotChallenge(ctx.app) });
    expect(client.xsrf).toBeDefined();
    expect(client.xsrf).not.toBe(before);
  });

  it('leaves the sessions of other browsers alone', async () => {
    const laptop = await login(ctx.app, EMAIL);
    const phone = await login(ctx.app, EMAIL);
    expect(await currentUserStatus(laptop)).toBe(200);
    expect(await currentUserStatus(phone)).toBe(200);
  });

  it('logout ends the session server-side, so a copied token no longer works', async () => {
    const client = await login(ctx.app, EMAIL);
    const copy = createClientWith(client);
    const logout = await client.request('POST', '/api/auth/logout');
    expect(logout.status).toBe(204);
    expect(setCookieLine(logout, 'session')).toMatch(/Max-Age=0/);
    expect(await currentUserStatus(copy)).toBe(401);
    expect(ctx.db.select().from(sessions).all()).toHaveLength(0);
  });

  it('logout works when nobody is signed in', async () => {
    const client = createClient(ctx.app);
    await client.fetchCsrfCookie();
    expect((await client.request('POST', '/api/auth/logout')).status).toBe(204);
  });
});

describe('validation', () => {
  it('rejects the sessions of a user who gets banned, at once', async () => {
    const client = await login(ctx.app, EMAIL);
    ctx.db.update(users).set({ is_banned: 1 }).where(eq(users.email, EMAIL)).run();
    expect(await currentUserStatus(client)).toBe(401);
  });

  it('invalidateUserSessions signs a user out everywhere', async () => {
    const laptop = await login(ctx.app, EMAIL);
    const phone = await login(ctx.app, EMAIL);
    expect(invalidateUserSessions(ctx, laptop.user.id)).toBe(2);
    expect(await currentUserStatus(laptop)).toBe(401);
    expect(await currentUserStatus(phone)).toBe(401);
  });

  it('validateSessionToken returns the session and user, renewing by the injected clock', async () => {
    const user = ctx.db.select().from(users).get();
    if (!user) throw new Error('no user');
    const { token, session } = createSession(ctx, user.id, { persistent: false });
    expect(session.expires_at).toBe(ctx.now() + 2 * HOUR);
    expect(validateSessionToken(ctx, token)).toMatchObject({ user: { id: user.id }, renewed: false });
    ctx.advance(61 * MINUTE);
    const renewed = validateSessionToken(ctx, token);
    expect(renewed?.renewed).toBe(true);
    expect(renewed?.session.expires_at).toBe(ctx.now() + 2 * HOUR);
    expect(validateSessionToken(ctx, 'x'.repeat(43))).toBeNull();
  });
});

/** A second client holding a copy of another client's cookies (a stolen or replayed cookie). */
function createClientWith(source: TestClient): TestClient {
  const copy = createClient(ctx.app);
  for (const [name, value] of source.cookies) copy.cookies.set(name, value);
  return copy;
}
