// Login with two-factor on (docs/product/accounts.md#two-factor-sign-in): the password step gives no session,
// only a pending step bound to that browser; a code or a recovery code completes it like a plain login.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessions, twoFactorPendingLogins } from '../../../../server/db/schema.ts';
import { DEFAULT_TEST_PASSWORD, createClient, createUser, login } from '../../../helpers/auth.ts';
import { solveBotChallenge } from '../../../helpers/botcheck.ts';
import { sessionIdFromToken } from '../../../../server/auth/sessions.ts';
import { waitForMailTo } from '../../../helpers/accounts.ts';
import { codeFor, enrollTwoFactor, passwordStep, type Enrollment } from '../../../helpers/two-factor.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

const EMAIL = 'ann@example.test';
const STEP = 30_000;

let ctx: TestContext;
let userId: number;
let enrollment: Enrollment;
beforeEach(async () => {
  ctx = createTestContext({ fakeClock: true });
  userId = (await createUser(ctx, { email: EMAIL, name: 'Ann' })).id;
  const ann = await login(ctx.app, EMAIL);
  enrollment = await enrollTwoFactor(ann, ctx.now);
  // The enabling code's step is used: move on so each test starts with a fresh one.
  ctx.advance(STEP);
});
afterEach(() => ctx.cleanup());

const sessionCount = () => ctx.db.select().from(sessions).where(eq(sessions.user_id, userId)).all().length;
const second = (client: Awaited<ReturnType<typeof passwordStep>>['client'], body: Record<string, unknown>) =>
  client.request('POST', '/api/auth/two-factor', body);

describe('POST /api/auth/login with two-factor on', () => {
  it('answers { two_factor: true }, creates no session and sets only the HttpOnly pending cookie', async () => {
    const before = sessionCount();
    const { client, response } = await passwordStep(ctx.app, EMAIL);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ two_factor: true });
    expect(sessionCount()).toBe(before);
    expect(client.cookies.has('session')).toBe(false);
    const pendingCookie = response.headers.getSetCookie().find((line) => line.startsWith('two_factor='));
    expect(pendingCookie).toMatch(/HttpOnly/i);
    expect(pendingCookie).toMatch(/Max-Age=300/);
    // Stored hashed: the cookie's token is not the row's id.
    const token = client.cookies.get('two_factor') ?? '';
    const rows = ctx.db.select().from(twoFactorPendingLogins).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id).not.toBe(token);
    expect((await client.request('GET', '/api/user')).status).toBe(401);
  });
});

describe('POST /api/auth/two-factor', () => {
  it('a right code completes the login with the same answer as a login, remember_me carried over', async () => {
    const { client } = await passwordStep(ctx.app, EMAIL, { rememberMe: true });
    const xsrfBefore = client.xsrf;
    const response = await second(client, { code: codeFor(enrollment.secret, ctx.now()) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: { id: number; two_factor_enabled_at: string | null; two_factor_required: boolean }; licenses: unknown[] };
    expect(body.user.id).toBe(userId);
    expect(body.user.two_factor_enabled_at).not.toBeNull();
    expect(body.user.two_factor_required).toBe(false);
    expect(body.licenses).toEqual([]);
    expect(client.xsrf).not.toBe(xsrfBefore);
    const sessionCookie = response.headers.getSetCookie().find((line) => line.startsWith('session='));
    expect(sessionCookie).toMatch(/Max-Age=\d+/);
    expect(client.cookies.has('two_factor')).toBe(false);
    const me = await client.request('GET', '/api/user');
    expect(me.status).toBe(200);
    // The pending step is spent.
    expect(ctx.db.select().from(twoFactorPendingLogins).all()).toHaveLength(0);
  });

  it('without remember_me the session ends with the browser', async () => {
    const { client } = await passwordStep(ctx.app, EMAIL);
    const response = await second(client, { code: codeFor(enrollment.secret, ctx.now()) });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().find((line) => line.startsWith('session='))).not.toMatch(/Max-Age/);
  });

  it('ends the session this browser had before (no session fixation)', async () => {
    // A browser already signed in (as Bob) logs in as Ann with two-factor: Bob's session must end and Ann's
    // be a new token, whatever the browser held before.
    await createUser(ctx, { email: 'bob@example.test', name: 'Bob' });
    const client = await login(ctx.app, 'bob@example.test');
    const bobsToken = client.cookies.get('session');
    const step = await client.request('POST', '/api/auth/login', {
      email: EMAIL,
      password: DEFAULT_TEST_PASSWORD,
      remember_me: false,
      g_token: await solveBotChallenge(ctx.app),
    });
    expect(await step.json()).toEqual({ two_factor: true });
    const response = await second(client, { code: codeFor(enrollment.secret, ctx.now()) });
    expect(response.status).toBe(200);
    expect(client.cookies.get('session')).not.toBe(bobsToken);
    expect(
      ctx.db
        .select()
        .from(sessions)
        .where(eq(sessions.id, sessionIdFromToken(bobsToken ?? '')))
        .all(),
    ).toHaveLength(0);
  });

  it('is bound to the browser of the password step: another client has no pending step', async () => {
    await passwordStep(ctx.app, EMAIL);
    const other = createClient(ctx.app);
    await other.fetchCsrfCookie();
    const response = await other.request('POST', '/api/auth/two-factor', { code: codeFor(enrollment.secret, ctx.now()) });
    expect(response.status).toBe(401);
  });

  it('refuses a code used before (replay), even in its own 30 seconds', async () => {
    const code = codeFor(enrollment.secret, ctx.now());
    const first = await passwordStep(ctx.app, EMAIL);
    expect((await second(first.client, { code })).status).toBe(200);
    const again = await passwordStep(ctx.app, EMAIL);
    const replay = await second(again.client, { code });
    expect(replay.status).toBe(422);
    expect(((await replay.json()) as { errors: Record<string, string[]> }).errors.code?.[0]).toBe('The code is not valid.');
    // An earlier step's code is refused too once a later one was used.
    expect((await second(again.client, { code: codeFor(enrollment.secret, ctx.now(), -1) })).status).toBe(422);
  });

  it('accepts one step of drift either way and refuses two', async () => {
    // One more step, so the step before now has never been used.
    ctx.advance(STEP);
    for (const offset of [-2, 2]) {
      const { client } = await passwordStep(ctx.app, EMAIL);
      expect((await second(client, { code: codeFor(enrollment.secret, ctx.now(), offset) })).status).toBe(422);
    }
    const behind = await passwordStep(ctx.app, EMAIL);
    expect((await second(behind.client, { code: codeFor(enrollment.secret, ctx.now(), -1) })).status).toBe(200);
    ctx.advance(STEP * 3);
    const ahead = await passwordStep(ctx.app, EMAIL);
    expect((await second(ahead.client, { code: codeFor(enrollment.secret, ctx.now(), 1) })).status).toBe(200);
  });

  it('a recovery code works once and the owner is told how many remain', async () => {
    const [code] = enrollment.recoveryCodes;
    const first = await passwordStep(ctx.app, EMAIL);
    // Typed in capitals without dashes: still the same code.
    const response = await second(first.client, { recovery_code: code?.replace(/-/g, '').toUpperCase() });
    expect(response.status).toBe(200);
    const mail = await waitForMailTo(ctx.config.outboxDir, EMAIL, (m) => m.subject.includes('A recovery code was used'));
    expect(mail.text).toContain('9 recovery codes are left');

    const again = await passwordStep(ctx.app, EMAIL);
    const reuse = await second(again.client, { recovery_code: code });
    expect(reuse.status).toBe(422);
    expect(((await reuse.json()) as { errors: Record<string, string[]> }).errors.recovery_code?.[0]).toBe('The recovery code is not valid.');
  });

  it('allows five tries per password step, then the step is void', async () => {
    const { client } = await passwordStep(ctx.app, EMAIL);
    const wrong = { code: codeFor(enrollment.secret, ctx.now(), 5) };
    for (let attempt = 0; attempt < 4; attempt += 1) expect((await second(client, wrong)).status).toBe(422);
    const fifth = await second(client, wrong);
    expect(fifth.status).toBe(401);
    expect(((await fifth.json()) as { message: string }).message).toBe('Too many wrong codes. Please log in again.');
    // Even the right code does not revive it.
    expect((await second(client, { code: codeFor(enrollment.secret, ctx.now()) })).status).toBe(401);
    expect(sessionCount()).toBe(1);
  });

  it('throttles codes per account across password steps', async () => {
    const wrong = { code: codeFor(enrollment.secret, ctx.now(), 5) };
    for (let round = 0; round < 2; round += 1) {
      const { client } = await passwordStep(ctx.app, EMAIL);
      for (let attempt = 0; attempt < 5; attempt += 1) await second(client, wrong);
    }
    const { client } = await passwordStep(ctx.app, EMAIL);
    const refused = await second(client, { code: codeFor(enrollment.secret, ctx.now()) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
    ctx.advance(15 * 60_000);
    const later = await passwordStep(ctx.app, EMAIL);
    expect((await second(later.client, { code: codeFor(enrollment.secret, ctx.now()) })).status).toBe(200);
  });

  it('the pending step expires after 5 minutes', async () => {
    const { client } = await passwordStep(ctx.app, EMAIL);
    ctx.advance(5 * 60_000);
    const response = await second(client, { code: codeFor(enrollment.secret, ctx.now()) });
    expect(response.status).toBe(401);
    expect(((await response.json()) as { message: string }).message).toBe('Your sign-in has expired. Please log in again.');
  });

  it('answers 422 without counting a try when neither or both codes are sent', async () => {
    const { client } = await passwordStep(ctx.app, EMAIL);
    expect((await second(client, {})).status).toBe(422);
    expect((await second(client, { code: '123456', recovery_code: 'abcd' })).status).toBe(422);
    expect((await second(client, { code: 'abcdef' })).status).toBe(422);
    expect((await second(client, { code: codeFor(enrollment.secret, ctx.now()) })).status).toBe(200);
  });
});
