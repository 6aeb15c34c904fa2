// PUT /api/user/password (docs/product/accounts.md#change-password): the current password is required, the new
// one follows the registration rules, every other session ends while this one stays, the owner is mailed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../../../server/auth/passwords.ts';
import { getUserByEmail } from '../../../../server/db/queries/users.ts';
import { passwordResetTokens } from '../../../../server/db/schema.ts';
import { createClient, createUser, DEFAULT_TEST_PASSWORD, login } from '../../../helpers/auth.ts';
import { anonymousClient, linkIn, STRONG_PASSWORD, waitForMailTo } from '../../../helpers/accounts.ts';
import { readOutbox } from '../../../helpers/mail.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

const CHANGED = { message: 'Your password has been changed. Every other session has been signed out.' };
const WRONG = { message: 'The password is incorrect.', errors: { current_password: ['The password is incorrect.'] } };

let ctx: TestContext;
beforeEach(async () => {
  ctx = createTestContext({ fakeClock: true });
  await createUser(ctx, { email: 'ann@example.test', name: 'Ann' });
});
afterEach(() => ctx.cleanup());

const change = (fields: Record<string, unknown>) => ({
  current_password: DEFAULT_TEST_PASSWORD,
  password: STRONG_PASSWORD,
  password_confirmation: fields.password ?? STRONG_PASSWORD,
  ...fields,
});

async function storedPasswordIs(password: string): Promise<boolean> {
  return verifyPassword(getUserByEmail(ctx.db, 'ann@example.test')?.password_hash ?? '', password);
}

describe('PUT /api/user/password', () => {
  it('changes the password, ends every other session, keeps this one and mails a notice with the reset page', async () => {
    const other = await login(ctx.app, 'ann@example.test');
    const mine = await login(ctx.app, 'ann@example.test');
    const response = await mine.request('PUT', '/api/user/password', change({}));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(CHANGED);
    expect(await storedPasswordIs(STRONG_PASSWORD)).toBe(true);
    expect((await other.request('GET', '/api/user')).status).toBe(401);
    expect((await mine.request('GET', '/api/user')).status).toBe(200);

    const mail = await waitForMailTo(ctx.config.outboxDir, 'ann@example.test');
    expect(mail.subject).toContain('Your password was changed');
    expect(mail.text).toContain("If this wasn't you, reset your password now.");
    expect(linkIn(mail, '/reset-password')).toBe('http://localhost:4321/reset-password');
    // The new password signs in; the old one no longer does.
    await login(ctx.app, 'ann@example.test', STRONG_PASSWORD);
    await expect(login(ctx.app, 'ann@example.test')).rejects.toThrow(/answered 422/);
  });

  it('refuses a wrong current password with 422 on current_password and changes nothing', async () => {
    const other = await login(ctx.app, 'ann@example.test');
    const mine = await login(ctx.app, 'ann@example.test');
    const response = await mine.request('PUT', '/api/user/password', change({ current_password: 'not-my-password' }));
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual(WRONG);
    expect(await storedPasswordIs(DEFAULT_TEST_PASSWORD)).toBe(true);
    expect((await other.request('GET', '/api/user')).status).toBe(200);
    expect(readOutbox(ctx.config.outboxDir)).toEqual([]);
  });

  it('applies the registration’s password rules and the confirmation', async () => {
    const mine = await login(ctx.app, 'ann@example.test');
    for (const [fields, errors] of [
      [{ password: 'q7#Lx' }, { password: ['The password field must be at least 8 characters.'] }],
      [{ password: 'password123' }, { password: ['This password is too common. Please choose another one.'] }],
      [{ password_confirmation: 'something-else-entirely' }, { password: ['The password field confirmation does not match.'] }],
      [{ current_password: '' }, { current_password: ['The current password field is required.'] }],
    ] as const) {
      const response = await mine.request('PUT', '/api/user/password', change(fields));
      expect(response.status).toBe(422);
      expect(((await response.json()) as { errors: unknown }).errors).toEqual(errors);
    }
    expect(await storedPasswordIs(DEFAULT_TEST_PASSWORD)).toBe(true);
  });

  it('throttles attempts per user: the sixth within 15 minutes is refused, even with the right password', async () => {
    const mine = await login(ctx.app, 'ann@example.test');
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await mine.request('PUT', '/api/user/password', change({ current_password: `guess-${attempt}` }))).status).toBe(422);
    }
    const refused = await mine.request('PUT', '/api/user/password', change({}));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe(String(15 * 60));
    expect(await storedPasswordIs(DEFAULT_TEST_PASSWORD)).toBe(true);
    ctx.advance(15 * 60_000);
    expect((await mine.request('PUT', '/api/user/password', change({}))).status).toBe(200);
  });

  it('voids a reset link mailed before the change', async () => {
    await (await anonymousClient(ctx.app)).request('POST', '/api/auth/reset-password', { email: 'ann@example.test' });
    await waitForMailTo(ctx.config.outboxDir, 'ann@example.test');
    expect(ctx.db.select().from(passwordResetTokens).all()).toHaveLength(1);
    const mine = await login(ctx.app, 'ann@example.test');
    expect((await mine.request('PUT', '/api/user/password', change({}))).status).toBe(200);
    expect(ctx.db.select().from(passwordResetTokens).all()).toEqual([]);
  });

  it('answers 401 without a session', async () => {
    const visitor = createClient(ctx.app);
    await visitor.fetchCsrfCookie();
    expect((await visitor.request('PUT', '/api/user/password', change({}))).status).toBe(401);
  });
});
