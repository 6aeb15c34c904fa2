// POST /api/auth/reset-password and /api/auth/new-password: one answer for every address, a single-use
// 60-minute token stored hashed, the newest link only, and every session ended by a reset.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { passwordResetTokens, sessions, users } from '../../../../server/db/schema.ts';
import { createClient, createUser, DEFAULT_TEST_PASSWORD, login } from '../../../helpers/auth.ts';
import { anonymousClient, linkIn, STRONG_PASSWORD, waitForMailTo } from '../../../helpers/accounts.ts';
import { readOutbox } from '../../../helpers/mail.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

const SENT = { message: 'Message sent, please check your mailbox.' };
const INVALID_TOKEN = {
  message: 'This password reset token is invalid or has expired.',
  errors: { token: ['This password reset token is invalid or has expired.'] },
};
const DONE = { message: 'Your password has been reset. You can now log in with your new password.' };
const NEW_PASSWORD = 'violet-harbour-2718-kettle';

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext({ fakeClock: true });
});
afterEach(() => ctx.cleanup());

async function requestReset(email: unknown, headers: Record<string, string> = {}) {
  return (await anonymousClient(ctx.app)).request('POST', '/api/auth/reset-password', { email }, { headers });
}

async function setNewPassword(fields: Record<string, unknown>) {
  return (await anonymousClient(ctx.app)).request('POST', '/api/auth/new-password', {
    password: NEW_PASSWORD,
    password_confirmation: fields.password ?? NEW_PASSWORD,
    ...fields,
  });
}

/** Requests a reset and returns the token and e-mail from the link in the mail. */
/** The link of the reset mail this request sends (a mail the outbox did not hold before it, never an earlier one). */
async function resetLinkFor(email: string): Promise<{ token: string; email: string; link: URL }> {
  const earlier = new Set(readOutbox(ctx.config.outboxDir).map((mail) => mail.file));
  expect(await (await requestReset(email)).json()).toEqual(SENT);
  const mail = await waitForMailTo(ctx.config.outboxDir, email, (candidate) => !earlier.has(candidate.file));
  const link = new URL(linkIn(mail, '/reset-pasword/form'));
  return { token: link.searchParams.get('token') ?? '', email: link.searchParams.get('email') ?? '', link };
}

describe('POST /api/auth/reset-password', () => {
  it('counts in the daily cap per mailbox that every account mail shares: past it, the same answer and no mail (issue 17, item 3)', async () => {
    // Two accounts whose addresses reach one mailbox ("+tags"): requests spread over both share the cap.
    await createUser(ctx, { email: 'victim@example.test', name: 'Visit http://evil.example now' });
    await createUser(ctx, { email: 'victim+2@example.test' });
    for (let index = 0; index < 12; index += 1) {
      expect(await (await requestReset(index % 2 === 0 ? 'victim@example.test' : 'victim+2@example.test')).json()).toEqual(SENT);
      // Past the per-address limit of one a minute.
      ctx.advance(61_000);
    }
    // The mails are written after the answer (it must not take longer for a real account).
    await vi.waitFor(() => expect(readOutbox(ctx.config.outboxDir)).toHaveLength(10));
    expect(ctx.logLines.filter((line) => line.includes('account mails for today'))).toHaveLength(2);
    const mails = readOutbox(ctx.config.outboxDir);
    // The name chosen at registration does not advertise anything in the mail.
    for (const mail of mails) expect(`${mail.text}${mail.html}`).not.toContain('evil.example');
  });

  it('mails a link to /reset-pasword/form with the token and address, storing only the token’s hash', async () => {
    const user = await createUser(ctx, { email: 'Ann+x@Example.test', name: 'Ann' });
    const { token, email, link } = await resetLinkFor('ann+x@example.test');
    expect(`${link.origin}${link.pathname}`).toBe('http://localhost:4321/reset-pasword/form');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(email).toBe('Ann+x@Example.test');
    const row = ctx.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.user_id, user.id)).get();
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.token_hash).not.toContain(token);
    expect(row?.expires_at).toBe(ctx.now() + 60 * 60 * 1000);
  });

  it('gives the same answer for an unknown address, a banned account and a known one, mailing only the known one', async () => {
    await createUser(ctx, { email: 'known@example.test' });
    await createUser(ctx, { email: 'banned@example.test', banned: true });
    const answers = [];
    for (const email of ['nobody@example.test', 'banned@example.test', 'known@example.test']) {
      const response = await requestReset(email);
      answers.push({ status: response.status, body: await response.json() });
    }
    expect(answers).toEqual([
      { status: 200, body: SENT },
      { status: 200, body: SENT },
      { status: 200, body: SENT },
    ]);
    await waitForMailTo(ctx.config.outboxDir, 'known@example.test');
    expect(readOutbox(ctx.config.outboxDir).map((mail) => mail.to)).toEqual(['known@example.test']);
    expect(ctx.db.select().from(passwordResetTokens).all()).toHaveLength(1);
  });

  it('answers 422 with the first email error only for a malformed address', async () => {
    for (const [email, message] of [
      ['', 'The email field is required.'],
      ['not an address', 'The email field must be a valid email address.'],
      [undefined, 'The email field is required.'],
    ] as const) {
      const response = await requestReset(email);
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({ message, errors: { email: [message] } });
    }
  });

  it('mails one link per address per minute and still answers the same success', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    await resetLinkFor('ann@example.test');
    const firstHash = ctx.db.select().from(passwordResetTokens).get()?.token_hash;
    expect(await (await requestReset('ANN@example.test')).json()).toEqual(SENT);
    expect(ctx.db.select().from(passwordResetTokens).get()?.token_hash).toBe(firstHash);
    ctx.advance(60_000);
    await resetLinkFor('ann@example.test');
    expect(readOutbox(ctx.config.outboxDir)).toHaveLength(2);
  });

  it('throttles requests per IP (20 an hour) with 429 and Retry-After', async () => {
    for (let index = 0; index < 20; index += 1) expect((await requestReset(`someone${index}@example.test`)).status).toBe(200);
    const refused = await requestReset('one-more@example.test');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { errors: { email: string[] } }).errors.email[0]).toMatch(/^Too many requests/);
  });
});

describe('POST /api/auth/new-password', () => {
  it('sets the new password, spends the token, verifies the address; the new password logs in, the old does not', async () => {
    const user = await createUser(ctx, { email: 'ann@example.test', verified: false });
    const { token, email } = await resetLinkFor('ann@example.test');
    const response = await setNewPassword({ token, email });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(DONE);
    expect(ctx.db.select().from(passwordResetTokens).all()).toHaveLength(0);
    expect(ctx.db.select().from(users).where(eq(users.id, user.id)).get()?.email_verified_at).not.toBeNull();
    await expect(login(ctx.app, 'ann@example.test', DEFAULT_TEST_PASSWORD)).rejects.toThrow(/answered 422/);
    const client = await login(ctx.app, 'ann@example.test', NEW_PASSWORD);
    expect(client.user.email).toBe('ann@example.test');
  });

  it('is voided by an admin changing the address: the link works with neither address and verifies nothing (issue 17, item 4)', async () => {
    await createUser(ctx, { email: 'boss@example.test', role: 'admin' });
    const user = await createUser(ctx, { email: 'ann@example.test', verified: true });
    const { token } = await resetLinkFor('ann@example.test');
    const admin = await login(ctx.app, 'boss@example.test');
    expect((await admin.request('PUT', `/api/user/update/${user.id}`, { email: 'ann.new@example.test' })).status).toBe(200);
    expect(ctx.db.select().from(passwordResetTokens).all()).toHaveLength(0);
    for (const email of ['ann.new@example.test', 'ann@example.test']) {
      const response = await setNewPassword({ token, email });
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual(INVALID_TOKEN);
    }
    expect(ctx.db.select().from(users).where(eq(users.id, user.id)).get()?.email_verified_at).toBeNull();
    await login(ctx.app, 'ann.new@example.test', DEFAULT_TEST_PASSWORD);
  });

  it('is bound to the address it was sent to, whatever path changed the address (issue 17, item 4)', async () => {
    const user = await createUser(ctx, { email: 'ann@example.test', verified: false });
    const { token } = await resetLinkFor('ann@example.test');
    ctx.db.update(users).set({ email: 'ann.new@example.test' }).where(eq(users.id, user.id)).run();
    const response = await setNewPassword({ token, email: 'ann.new@example.test' });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(INVALID_TOKEN);
    expect(ctx.db.select().from(users).where(eq(users.id, user.id)).get()?.email_verified_at).toBeNull();
    // A change of letter case is the same address: the link still works and verifies it.
    ctx.db.update(users).set({ email: 'Ann@Example.test' }).where(eq(users.id, user.id)).run();
    ctx.advance(60_000); // past the one-mail-a-minute throttle
    const again = await resetLinkFor('Ann@Example.test');
    ctx.db.update(users).set({ email: 'ANN@example.test' }).where(eq(users.id, user.id)).run();
    expect((await setNewPassword({ token: again.token, email: 'ann@example.test' })).status).toBe(200);
    expect(ctx.db.select().from(users).where(eq(users.id, user.id)).get()?.email_verified_at).not.toBeNull();
  });

  it('ends every session of the user: a logged-in client gets 401 afterwards', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    const laptop = await login(ctx.app, 'ann@example.test', DEFAULT_TEST_PASSWORD, { rememberMe: true });
    const phone = await login(ctx.app, 'ann@example.test');
    await createUser(ctx, { email: 'bystander@example.test' });
    const bystander = await login(ctx.app, 'bystander@example.test');
    expect((await laptop.request('GET', '/api/user')).status).toBe(200);

    const { token, email } = await resetLinkFor('ann@example.test');
    expect((await setNewPassword({ token, email })).status).toBe(200);
    expect((await laptop.request('GET', '/api/user')).status).toBe(401);
    expect((await phone.request('GET', '/api/user')).status).toBe(401);
    expect((await bystander.request('GET', '/api/user')).status).toBe(200);
    expect(ctx.db.select().from(sessions).all()).toHaveLength(1);
  });

  it('refuses a reused token', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    const { token, email } = await resetLinkFor('ann@example.test');
    expect((await setNewPassword({ token, email })).status).toBe(200);
    const again = await setNewPassword({ token, email, password: 'another-good-pass-99' });
    expect(again.status).toBe(422);
    expect(await again.json()).toEqual(INVALID_TOKEN);
    await login(ctx.app, 'ann@example.test', NEW_PASSWORD);
  });

  it('lets only one of two simultaneous uses of a token through', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    const { token, email } = await resetLinkFor('ann@example.test');
    const [first, second] = await Promise.all([setNewPassword({ token, email }), setNewPassword({ token, email, password: 'another-good-pass-99' })]);
    expect([first?.status, second?.status].sort()).toEqual([200, 422]);
  });

  it('refuses an expired token (after 60 minutes) and changes nothing', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    const { token, email } = await resetLinkFor('ann@example.test');
    ctx.advance(60 * 60 * 1000);
    const response = await setNewPassword({ token, email });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(INVALID_TOKEN);
    await login(ctx.app, 'ann@example.test', DEFAULT_TEST_PASSWORD);
  });

  it('voids the first link when a second is requested', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    const first = await resetLinkFor('ann@example.test');
    ctx.advance(61_000);
    const second = await resetLinkFor('ann@example.test');
    expect(second.token).not.toBe(first.token);
    expect(await (await setNewPassword({ token: first.token, email: first.email })).json()).toEqual(INVALID_TOKEN);
    expect((await setNewPassword({ token: second.token, email: second.email })).status).toBe(200);
  });

  it('refuses a token with another user’s address, a made-up token, and an unknown address alike', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    await createUser(ctx, { email: 'bob@example.test' });
    const { token } = await resetLinkFor('ann@example.test');
    for (const fields of [
      { token, email: 'bob@example.test' },
      { token: 'x'.repeat(43), email: 'ann@example.test' },
      { token, email: 'nobody@example.test' },
    ]) {
      const response = await setNewPassword(fields);
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual(INVALID_TOKEN);
    }
    await login(ctx.app, 'bob@example.test', DEFAULT_TEST_PASSWORD);
  });

  it('reports field errors first: token, email, password rules and confirmation', async () => {
    await createUser(ctx, { email: 'ann@example.test' });
    const { token, email } = await resetLinkFor('ann@example.test');
    const missing = await setNewPassword({ token: '', email: 'nope', password: 'short', password_confirmation: 'short' });
    expect(missing.status).toBe(422);
    const body = (await missing.json()) as { message: string; errors: Record<string, string[]> };
    expect(body.errors.token?.[0]).toBe('The token field is required.');
    expect(body.errors.email?.[0]).toBe('The email field must be a valid email address.');
    expect(body.errors.password?.[0]).toBe('The password field must be at least 8 characters.');
    expect(body.message).toBe('The token field is required.');

    const mismatch = await setNewPassword({ token, email, password: NEW_PASSWORD, password_confirmation: 'something else' });
    expect(((await mismatch.json()) as { errors: Record<string, string[]> }).errors).toEqual({ password: ['The password field confirmation does not match.'] });
    const common = await setNewPassword({ token, email, password: 'qwertyuiop' });
    expect(((await common.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      password: ['This password is too common. Please choose another one.'],
    });
    // Field errors do not spend the token.
    expect((await setNewPassword({ token, email })).status).toBe(200);
  });

  it('needs the XSRF header like every write', async () => {
    const client = createClient(ctx.app);
    await client.fetchCsrfCookie();
    const response = await client.request(
      'POST',
      '/api/auth/new-password',
      { token: 'x', email: 'a@b.test', password: STRONG_PASSWORD, password_confirmation: STRONG_PASSWORD },
      { headers: { 'X-XSRF-TOKEN': null } },
    );
    expect(response.status).toBe(419);
  });
});
