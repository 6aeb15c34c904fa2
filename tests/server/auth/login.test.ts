// POST /api/auth/login: success, identical failures, bans, validation and the throttle.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { licenses, licenseTypes, sessions } from '../../../server/db/schema.ts';
import { createClient, createUser, DEFAULT_TEST_PASSWORD, login, type TestClient } from '../../helpers/auth.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';
import { solveBotChallenge } from '../../helpers/botcheck.ts';
import { waitForMailTo } from '../../helpers/accounts.ts';
import { readOutbox } from '../../helpers/mail.ts';

const BAD_CREDENTIALS = { message: 'These credentials do not match our records.', errors: { email: ['These credentials do not match our records.'] } };

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext({ fakeClock: true });
});
afterEach(() => ctx.cleanup());

async function attempt(email: string, password: string, headers: Record<string, string> = {}, client?: TestClient) {
  const browser = client ?? createClient(ctx.app);
  if (!client) await browser.fetchCsrfCookie();
  return browser.request('POST', '/api/auth/login', { email, password, remember_me: false, g_token: await solveBotChallenge(ctx.app) }, { headers });
}

describe('login', () => {
  it('answers the public user and licenses (with their type name) and sets a session cookie', async () => {
    const user = await createUser(ctx, { email: 'ann@example.test', name: 'Ann' });
    const trial = ctx.db.insert(licenseTypes).values({ name: 'trial' }).returning().get();
    ctx.db.insert(licenses).values({ license_type_id: trial.id, user_id: user.id, active: 1, expire: 30 }).run();

    const response = await attempt('ann@example.test', DEFAULT_TEST_PASSWORD);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: Record<string, unknown>; licenses: Record<string, unknown>[] };
    expect(body.user).toMatchObject({ id: user.id, name: 'Ann', email: 'ann@example.test', role: 'user', is_banned: 0 });
    expect(body.licenses).toHaveLength(1);
    expect(body.licenses[0]).toMatchObject({ user_id: user.id, active: 1, expire: 30, license_type: { name: 'trial' } });
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('session='));
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
  });

  it('finds the account whatever the case of the e-mail', async () => {
    await createUser(ctx, { email: 'Mixed.Case@Example.test' });
    expect((await attempt('mixed.case@example.TEST', DEFAULT_TEST_PASSWORD)).status).toBe(200);
  });

  it('gives the same answer for an unknown e-mail and a wrong password', async () => {
    await createUser(ctx, { email: 'known@example.test' });
    const unknown = await attempt('nobody@example.test', 'whatever password');
    const wrong = await attempt('known@example.test', 'whatever password');
    expect(unknown.status).toBe(422);
    expect(wrong.status).toBe(422);
    const unknownBody = await unknown.json();
    expect(unknownBody).toEqual(BAD_CREDENTIALS);
    expect(await wrong.json()).toEqual(unknownBody);
    const sessionCookies = (response: Response) => response.headers.getSetCookie().filter((line) => !line.startsWith('XSRF-TOKEN='));
    expect(sessionCookies(unknown)).toEqual(sessionCookies(wrong));
    expect(ctx.db.select().from(sessions).all()).toHaveLength(0);
  });

  it('spends a password verification on unknown e-mails too, so timing does not tell them apart', async () => {
    await createUser(ctx, { email: 'known@example.test' });
    const time = async (email: string) => {
      const started = performance.now();
      await attempt(email, 'wrong password');
      return performance.now() - started;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    // Alternate and use fresh e-mails so the throttle never answers early.
    for (let round = 0; round < 4; round += 1) {
      known.push(await time('known@example.test'));
      unknown.push(await time(`nobody${round}@example.test`));
      ctx.advance(61_000);
    }
    // Without the dummy verification an unknown e-mail answers ~20x faster than argon2 runs.
    expect(Math.min(...unknown)).toBeGreaterThan(0.3 * Math.min(...known));
  });

  it('refuses a banned user with the right password with 403, and gives the usual 422 for a wrong one', async () => {
    await createUser(ctx, { email: 'banned@example.test', banned: true });
    const right = await attempt('banned@example.test', DEFAULT_TEST_PASSWORD);
    expect(right.status).toBe(403);
    expect(await right.json()).toEqual({ message: 'Your account has been suspended. Please contact the administrator.' });
    expect(right.headers.getSetCookie().some((line) => line.startsWith('session='))).toBe(false);
    const wrong = await attempt('banned@example.test', 'not the password');
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toEqual(BAD_CREDENTIALS);
    expect(ctx.db.select().from(sessions).all()).toHaveLength(0);
  });

  it('answers 422 with per-field messages for a malformed body', async () => {
    const client = createClient(ctx.app);
    await client.fetchCsrfCookie();
    const response = await client.request('POST', '/api/auth/login', { email: 'not-an-email', remember_me: false, g_token: await solveBotChallenge(ctx.app) });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { message: string; errors: Record<string, string[]> };
    expect(body.errors.email?.[0]).toMatch(/valid email/);
    expect(body.errors.password?.[0]).toBe('The password field is required.');
  });

  it('refuses a login without a bot-check token and creates no session', async () => {
    await createUser(ctx, { email: 'bot@example.test' });
    const client = createClient(ctx.app);
    await client.fetchCsrfCookie();
    const response = await client.request('POST', '/api/auth/login', { email: 'bot@example.test', password: DEFAULT_TEST_PASSWORD, remember_me: false });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { errors: Record<string, string[]> };
    expect(body.errors.g_token?.[0]).toBeTruthy();
    expect(ctx.db.select().from(sessions).all()).toHaveLength(0);
  });

  it('accepts remember_me in its form spellings', async () => {
    await createUser(ctx, { email: 'form@example.test' });
    const client = createClient(ctx.app);
    await client.fetchCsrfCookie();
    const response = await client.request('POST', '/api/auth/login', {
      email: 'form@example.test',
      password: DEFAULT_TEST_PASSWORD,
      remember_me: 'on',
      g_token: await solveBotChallenge(ctx.app),
    });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().find((line) => line.startsWith('session='))).toMatch(/Max-Age=2592000/);
  });
});

describe('login throttle', () => {
  beforeEach(async () => {
    await createUser(ctx, { email: 'target@example.test' });
  });

  async function failTimes(times: number, email = 'target@example.test', headers: Record<string, string> = {}) {
    for (let index = 0; index < times; index += 1) {
      const response = await attempt(email, 'wrong password', headers);
      expect(response.status, `failed attempt ${index + 1}`).toBe(422);
    }
  }

  it('counts failed bot checks as failed logins (issue 17, item 1): after 5, the right password with a good token answers 429', async () => {
    for (let index = 0; index < 5; index += 1) {
      const browser = createClient(ctx.app);
      await browser.fetchCsrfCookie();
      const refused = await browser.request('POST', '/api/auth/login', {
        email: ' Target@example.test',
        password: 'x',
        remember_me: false,
        g_token: 'not-a-token',
      });
      expect(refused.status, `failed bot check ${index + 1}`).toBe(422);
    }
    const sixth = await attempt('target@example.test', DEFAULT_TEST_PASSWORD);
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('Retry-After')).toBe('60');
  });

  it('answers the 6th failed attempt within 60 s with 429 and Retry-After in seconds, even with the right password', async () => {
    await failTimes(5);
    ctx.advance(45_000);
    const sixth = await attempt('target@example.test', 'wrong password');
    expect(sixth.status).toBe(429);
    // The first failure leaves the window 60 s after it: 15 s from now.
    expect(sixth.headers.get('Retry-After')).toBe('15');
    const body = (await sixth.json()) as { message: string; errors: { email: string[] } };
    expect(body.message).toBe('Too many login attempts. Please try again in 15 seconds.');
    expect(body.errors.email[0]).toBe(body.message);
    const right = await attempt('target@example.test', DEFAULT_TEST_PASSWORD);
    expect(right.status).toBe(429);
  });

  it('counts the e-mail case-insensitively', async () => {
    await failTimes(3, 'target@example.test');
    await failTimes(2, 'TARGET@example.test');
    expect((await attempt('Target@Example.test', 'wrong password')).status).toBe(429);
  });

  it('lets attempts through again once the window has passed', async () => {
    await failTimes(5);
    expect((await attempt('target@example.test', 'wrong password')).status).toBe(429);
    ctx.advance(59_999);
    expect((await attempt('target@example.test', DEFAULT_TEST_PASSWORD)).status).toBe(429);
    ctx.advance(1);
    expect((await attempt('target@example.test', DEFAULT_TEST_PASSWORD)).status).toBe(200);
  });

  it('clears the counter after a successful login', async () => {
    await failTimes(4);
    expect((await attempt('target@example.test', DEFAULT_TEST_PASSWORD)).status).toBe(200);
    await failTimes(5);
    expect((await attempt('target@example.test', 'wrong password')).status).toBe(429);
  });

  it('keeps other e-mails usable from the same client', async () => {
    await createUser(ctx, { email: 'other@example.test' });
    await failTimes(5);
    expect((await attempt('other@example.test', DEFAULT_TEST_PASSWORD)).status).toBe(200);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set, so a client cannot pick a fresh bucket', async () => {
    for (let index = 0; index < 5; index += 1) {
      expect((await attempt('target@example.test', 'wrong password', { 'X-Forwarded-For': `203.0.113.${index}` })).status).toBe(422);
    }
    expect((await attempt('target@example.test', 'wrong password', { 'X-Forwarded-For': '203.0.113.99' })).status).toBe(429);
  });

  it('counts per client IP behind a trusted proxy', async () => {
    const proxied = createTestContext({ fakeClock: true, env: { TRUST_PROXY: 'true' } });
    try {
      await createUser(proxied, { email: 'target@example.test' });
      const tryFrom = async (ip: string, password = 'wrong password') => {
        const client = createClient(proxied.app);
        await client.fetchCsrfCookie();
        // Only the entry the proxy appended (the last) counts; the client wrote the first.
        return client.request(
          'POST',
          '/api/auth/login',
          { email: 'target@example.test', password, g_token: await solveBotChallenge(proxied.app) },
          { headers: { 'X-Forwarded-For': `10.9.9.9, ${ip}` } },
        );
      };
      for (let index = 0; index < 5; index += 1) expect((await tryFrom('198.51.100.1')).status).toBe(422);
      expect((await tryFrom('198.51.100.1')).status).toBe(429);
      expect((await tryFrom('198.51.100.2', DEFAULT_TEST_PASSWORD)).status).toBe(200);
    } finally {
      proxied.cleanup();
    }
  });
});

// Issue 17 item 8: a limit per account across addresses, a notice to its owner, and IPv6 clients per /64.
describe('per-account login limit', () => {
  let proxied: TestContext;
  beforeEach(async () => {
    proxied = createTestContext({ fakeClock: true, env: { TRUST_PROXY: 'true' } });
    await createUser(proxied, { email: 'target@example.test', name: 'Tara' });
  });
  afterEach(() => proxied.cleanup());

  const GUESS = 'guess-Zq81-kumquat';
  let nextAddress = 0;
  const freshAddress = () => `198.51.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;
  async function tryFrom(ip: string, password = GUESS, email = 'target@example.test') {
    const client = createClient(proxied.app);
    await client.fetchCsrfCookie();
    return client.request(
      'POST',
      '/api/auth/login',
      { email, password, g_token: await solveBotChallenge(proxied.app) },
      { headers: { 'X-Forwarded-For': ip } },
    );
  }
  async function failFromManyAddresses(times: number, email = 'target@example.test') {
    for (let index = 0; index < times; index += 1) {
      expect((await tryFrom(freshAddress(), GUESS, email)).status, `failed attempt ${index + 1}`).toBe(422);
    }
  }
  const mailsTo = (address: string) => readOutbox(proxied.config.outboxDir).filter((mail) => mail.to === address);

  it('refuses every login for the account after 20 failures from different addresses, with Retry-After', async () => {
    await failFromManyAddresses(20);
    proxied.advance(5 * 60_000);
    const locked = await tryFrom(freshAddress(), DEFAULT_TEST_PASSWORD);
    expect(locked.status).toBe(429);
    // The first failure leaves the 15-minute window 10 minutes from now.
    expect(locked.headers.get('Retry-After')).toBe('600');
    const message = 'Too many login attempts. Please try again in 600 seconds.';
    expect(await locked.json()).toEqual({ message, errors: { email: [message] } });
    proxied.advance(600_000);
    expect((await tryFrom(freshAddress(), DEFAULT_TEST_PASSWORD)).status).toBe(200);
  });

  it('takes its number from ACCOUNT_LOGINS_PER_15_MINUTES', async () => {
    const strict = createTestContext({ env: { TRUST_PROXY: 'true', ACCOUNT_LOGINS_PER_15_MINUTES: '3' } });
    try {
      const attempt = async (index: number) => {
        const client = createClient(strict.app);
        await client.fetchCsrfCookie();
        const body = { email: 'someone@example.test', password: GUESS, g_token: await solveBotChallenge(strict.app) };
        return client.request('POST', '/api/auth/login', body, { headers: { 'X-Forwarded-For': `203.0.113.${index + 1}` } });
      };
      for (let index = 0; index < 3; index += 1) expect((await attempt(index)).status).toBe(422);
      expect((await attempt(3)).status).toBe(429);
    } finally {
      strict.cleanup();
    }
  });

  it('counts an e-mail without an account the same way, so a lockout tells nothing', async () => {
    await failFromManyAddresses(20, 'nobody@example.test');
    expect((await tryFrom(freshAddress(), GUESS, 'nobody@example.test')).status).toBe(429);
    expect(readOutbox(proxied.config.outboxDir)).toHaveLength(0);
  });

  it('is not cleared early by a successful login, while the per-(e-mail, address) count still is', async () => {
    const owner = freshAddress();
    for (let index = 0; index < 4; index += 1) expect((await tryFrom(owner)).status).toBe(422);
    expect((await tryFrom(owner, DEFAULT_TEST_PASSWORD)).status).toBe(200);
    // The success cleared the owner's (e-mail, address) count: four more failures from there are answered.
    for (let index = 0; index < 4; index += 1) expect((await tryFrom(owner)).status).toBe(422);
    await failFromManyAddresses(11);
    // ...but not the account's: its 20 attempts are spent, and stay spent until the window frees them.
    expect((await tryFrom(owner, DEFAULT_TEST_PASSWORD)).status).toBe(429);
    expect((await tryFrom(freshAddress(), DEFAULT_TEST_PASSWORD)).status).toBe(429);
  });

  it('mails the owner one lockout notice per lockout, without the password', async () => {
    await failFromManyAddresses(1);
    proxied.advance(60_000);
    await failFromManyAddresses(19);
    const notice = await waitForMailTo(proxied.config.outboxDir, 'target@example.test');
    expect(notice.subject).toMatch(/many failed sign-in attempts/i);
    expect(notice.text).toMatch(/Hello Tara,/);
    expect(notice.text).toMatch(/Someone tried to sign in to your .* account many times/);
    expect(notice.text).toMatch(/If it was not you, reset your password/);
    expect(notice.text).toContain(`${proxied.config.siteUrl}/reset-password`);
    expect(notice.html).toContain('reset your password');
    for (const part of [notice.text, notice.html]) {
      expect(part).not.toContain(GUESS);
      expect(part).not.toContain(DEFAULT_TEST_PASSWORD);
    }

    // Refused attempts during the lockout send no more, nor does the slot the window frees 14 minutes
    // later (the first failure leaving it) being taken again by another failure.
    for (let index = 0; index < 5; index += 1) expect((await tryFrom(freshAddress())).status).toBe(429);
    proxied.advance(14 * 60_000);
    await failFromManyAddresses(1);
    expect((await tryFrom(freshAddress())).status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo('target@example.test')).toHaveLength(1);

    // A new lockout once this one has run out is a new notice.
    proxied.advance(15 * 60_000);
    await failFromManyAddresses(20);
    await vi.waitFor(() => expect(mailsTo('target@example.test')).toHaveLength(2), { timeout: 5_000, interval: 20 });
  });

  it('counts IPv6 clients per /64 in the per-(e-mail, address) limit', async () => {
    for (let index = 1; index <= 5; index += 1) expect((await tryFrom(`2001:db8:1:2::${index.toString(16)}`)).status).toBe(422);
    expect((await tryFrom('2001:db8:1:2:ffff::1', DEFAULT_TEST_PASSWORD)).status).toBe(429);
    expect((await tryFrom('::ffff:198.51.100.7')).status).toBe(422);
    expect((await tryFrom('2001:db8:1:3::1', DEFAULT_TEST_PASSWORD)).status).toBe(200);
  });
});

describe('login helper', () => {
  it('returns a client that is signed in', async () => {
    await createUser(ctx, { email: 'helper@example.test' });
    const client = await login(ctx.app, 'helper@example.test');
    expect(client.user.email).toBe('helper@example.test');
    expect((await client.request('GET', '/api/user')).status).toBe(200);
  });
});
