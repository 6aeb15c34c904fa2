// PUT /api/user/email and its link (docs/product/accounts.md#change-e-mail): the password is required, banned
// domains and taken addresses are refused as at registration, nothing changes until the link mailed to the
// new address is followed, the old address is told, and a tampered or stale link changes nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getUserById } from '../../../../server/db/queries/users.ts';
import { bannedDomains, passwordResetTokens, users } from '../../../../server/db/schema.ts';
import { createClient, createUser, DEFAULT_TEST_PASSWORD, login, type LoggedInClient } from '../../../helpers/auth.ts';
import { anonymousClient, linkIn, redirectTarget, STRONG_PASSWORD, waitForMailTo } from '../../../helpers/accounts.ts';
import { readOutbox } from '../../../helpers/mail.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';
import { adminUserSchema, applyAdminUserEdit } from '../../../../server/features/users/admin-user-edit.ts';

const NEW = 'ann.new@example.test';

let ctx: TestContext;
let annId: number;
beforeEach(async () => {
  ctx = createTestContext({ fakeClock: true });
  annId = (await createUser(ctx, { email: 'ann@example.test', name: 'Ann' })).id;
});
afterEach(() => ctx.cleanup());

async function requestChange(client: LoggedInClient, fields: Record<string, unknown> = {}) {
  return client.request('PUT', '/api/user/email', { email: NEW, password: DEFAULT_TEST_PASSWORD, ...fields });
}

/** The link of the verification mail sent to the new address, as a path and query the app can be asked. */
async function changeLink(): Promise<string> {
  const link = new URL(linkIn(await waitForMailTo(ctx.config.outboxDir, NEW), '/api/user/email/confirm/'));
  return `${link.pathname}${link.search}`;
}

async function follow(path: string, client = createClient(ctx.app)) {
  const response = await client.request('GET', path);
  expect(response.status).toBe(302);
  return redirectTarget(response);
}

const emailOf = () => getUserById(ctx.db, annId)?.email;

describe('PUT /api/user/email', () => {
  it('mails a link to the new address and a notice to the old one, and changes nothing yet', async () => {
    const ann = await login(ctx.app, 'ann@example.test');
    const response = await requestChange(ann);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      message: `Check your new inbox: we sent a link to ${NEW}. Your e-mail address changes when you follow it.`,
    });
    expect(await changeLink()).toMatch(new RegExp(`^/api/user/email/confirm/${annId}\\?`));
    const notice = await waitForMailTo(ctx.config.outboxDir, 'ann@example.test');
    expect(notice.subject).toContain('A change of your e-mail address was requested');
    expect(notice.text).toContain(NEW);
    expect(linkIn(notice, '/reset-password')).toBe('http://localhost:4321/reset-password');
    // Until the link is followed: the old address is the account's and still signs in; the new one does not.
    expect(emailOf()).toBe('ann@example.test');
    await login(ctx.app, 'ann@example.test');
    await expect(login(ctx.app, NEW)).rejects.toThrow(/answered 422/);
  });

  it('refuses a wrong password, a banned domain, a taken address and the current one, sending nothing', async () => {
    await createUser(ctx, { email: 'Bob@Example.test' });
    ctx.db.insert(bannedDomains).values({ domain: 'spam.test' }).run();
    const ann = await login(ctx.app, 'ann@example.test');
    for (const [fields, errors] of [
      [{ password: 'wrong-password' }, { password: ['The password is incorrect.'] }],
      [{ email: 'ann@mail.spam.test' }, { email: ['This email domain is not accepted. Please use another address.'] }],
      [{ email: 'bob@example.TEST' }, { email: ['This email address is already in use.'] }],
      [{ email: 'ANN@example.test' }, { email: ['This is already your e-mail address.'] }],
      [{ email: 'not an address' }, { email: ['The email field must be a valid email address.'] }],
      [{ password: '' }, { password: ['The password field is required.'] }],
    ] as const) {
      const response = await requestChange(ann, fields);
      expect(response.status).toBe(422);
      expect(((await response.json()) as { errors: unknown }).errors).toEqual(errors);
    }
    expect(readOutbox(ctx.config.outboxDir)).toEqual([]);
    expect(emailOf()).toBe('ann@example.test');
  });

  it('limits change requests to five an hour per user', async () => {
    const ann = await login(ctx.app, 'ann@example.test');
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await requestChange(ann, { email: `ann${attempt}@example.test` })).status).toBe(200);
    const refused = await requestChange(ann);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe(String(60 * 60));
    expect(readOutbox(ctx.config.outboxDir)).toHaveLength(10);
  });

  it('answers 401 without a session', async () => {
    const visitor = await anonymousClient(ctx.app);
    expect((await visitor.request('PUT', '/api/user/email', { email: NEW, password: DEFAULT_TEST_PASSWORD })).status).toBe(401);
  });
});

describe('GET /api/user/email/confirm/{id}', () => {
  it('makes the new address the account’s, verified; the old one no longer signs in; other sessions end', async () => {
    ctx.db.update(users).set({ email_verified_at: null }).run();
    const other = await login(ctx.app, 'ann@example.test');
    const ann = await login(ctx.app, 'ann@example.test');
    await requestChange(ann);
    const target = await follow(await changeLink(), ann);
    expect(target.pathname).toBe('/email/verified');
    expect(Object.fromEntries(target.searchParams)).toEqual({
      validation: '1',
      kind: 'email-change',
      message: 'Your e-mail address has been changed.',
      email: NEW,
    });
    const user = getUserById(ctx.db, annId);
    expect(user?.email).toBe(NEW);
    expect(user?.email_verified_at).toBe(new Date(ctx.now()).toISOString());
    expect((await ann.request('GET', '/api/user')).status).toBe(200);
    expect((await other.request('GET', '/api/user')).status).toBe(401);
    await login(ctx.app, NEW);
    await expect(login(ctx.app, 'ann@example.test')).rejects.toThrow(/answered 422/);
  });

  it('voids a reset link mailed to the old address', async () => {
    await (await anonymousClient(ctx.app)).request('POST', '/api/auth/reset-password', { email: 'ann@example.test' });
    const resetMail = await waitForMailTo(ctx.config.outboxDir, 'ann@example.test');
    const reset = new URL(linkIn(resetMail, '/reset-pasword/form'));
    const ann = await login(ctx.app, 'ann@example.test');
    await requestChange(ann);
    await follow(await changeLink());
    expect(ctx.db.select().from(passwordResetTokens).all()).toEqual([]);
    const response = await (
      await anonymousClient(ctx.app)
    ).request('POST', '/api/auth/new-password', {
      token: reset.searchParams.get('token'),
      email: NEW,
      password: STRONG_PASSWORD,
      password_confirmation: STRONG_PASSWORD,
    });
    expect(response.status).toBe(422);
  });

  it('refuses a tampered link, another user’s id, an expired link and a used one, changing nothing', async () => {
    const bobId = (await createUser(ctx, { email: 'bob@example.test' })).id;
    const ann = await login(ctx.app, 'ann@example.test');
    await requestChange(ann);
    const link = await changeLink();
    const tampered = [
      link.replace(encodeURIComponent(NEW), encodeURIComponent('mallory@example.test')),
      link.replace(`/confirm/${annId}?`, `/confirm/${bobId}?`),
      link.replace(/signature=[0-9a-f]+/, `signature=${'0'.repeat(64)}`),
      link.replace(/&?signature=[0-9a-f]+/, ''),
    ];
    for (const path of tampered) {
      expect(path).not.toBe(link);
      const target = await follow(path);
      expect(target.searchParams.get('validation')).toBe('0');
      expect(target.searchParams.get('message')).toBe('This e-mail change link is invalid or has expired.');
    }
    expect(emailOf()).toBe('ann@example.test');
    expect(getUserById(ctx.db, bobId)?.email).toBe('bob@example.test');

    // Used once, it is dead: the account's address is no longer the one it was made for.
    expect((await follow(link)).searchParams.get('validation')).toBe('1');
    expect((await follow(link)).searchParams.get('validation')).toBe('0');
    expect(emailOf()).toBe(NEW);
  });

  it('is good once: a used link stays dead after the address comes back to the one it was made for (issue 29, item 1)', async () => {
    const other = await login(ctx.app, 'ann@example.test');
    const ann = await login(ctx.app, 'ann@example.test');
    await requestChange(ann);
    const first = await changeLink();
    expect((await follow(first, ann)).searchParams.get('validation')).toBe('1');
    // The other session ended with the first change; a new one signs in with the new address.
    expect((await other.request('GET', '/api/user')).status).toBe(401);

    // Back to the old address, with a link of its own.
    expect((await requestChange(ann, { email: 'ann@example.test' })).status).toBe(200);
    const back = new URL(
      linkIn(
        await waitForMailTo(ctx.config.outboxDir, 'ann@example.test', (mail) => (mail.text ?? '').includes('/api/user/email/confirm/')),
        '/api/user/email/confirm/',
      ),
    );
    expect((await follow(`${back.pathname}${back.search}`, ann)).searchParams.get('validation')).toBe('1');
    expect(emailOf()).toBe('ann@example.test');
    const survivor = await login(ctx.app, 'ann@example.test');

    // The first link again: refused, the address stays and no session ends.
    const replay = await follow(first);
    expect(replay.searchParams.get('validation')).toBe('0');
    expect(replay.searchParams.get('message')).toBe('This e-mail change link is invalid or has expired.');
    expect(emailOf()).toBe('ann@example.test');
    expect((await survivor.request('GET', '/api/user')).status).toBe(200);
    expect((await ann.request('GET', '/api/user')).status).toBe(200);
  });

  it('is voided by an admin’s edit of the address, even one that puts the old address back', async () => {
    const adminId = (await createUser(ctx, { email: 'admin@example.test', role: 'admin' })).id;
    const ann = await login(ctx.app, 'ann@example.test');
    await requestChange(ann);
    const link = await changeLink();
    applyAdminUserEdit(ctx, adminId, annId, adminUserSchema.parse({ email: 'ann.other@example.test' }));
    applyAdminUserEdit(ctx, adminId, annId, adminUserSchema.parse({ email: 'ann@example.test' }));
    expect((await follow(link)).searchParams.get('validation')).toBe('0');
    expect(emailOf()).toBe('ann@example.test');
  });

  it('is voided by a password reset', async () => {
    const ann = await login(ctx.app, 'ann@example.test');
    await requestChange(ann);
    const link = await changeLink();
    await (await anonymousClient(ctx.app)).request('POST', '/api/auth/reset-password', { email: 'ann@example.test' });
    const reset = new URL(
      linkIn(await waitForMailTo(ctx.config.outboxDir, 'ann@example.test', (mail) => (mail.text ?? '').includes('/reset-pasword/form')), '/reset-pasword/form'),
    );
    const response = await (
      await anonymousClient(ctx.app)
    ).request('POST', '/api/auth/new-password', {
      token: reset.searchParams.get('token'),
      email: 'ann@example.test',
      password: STRONG_PASSWORD,
      password_confirmation: STRONG_PASSWORD,
    });
    expect(response.status).toBe(200);
    expect((await follow(link)).searchParams.get('validation')).toBe('0');
    expect(emailOf()).toBe('ann@example.test');
  });

  it('refuses a link past its hour', async () => {
    const ann = await login(ctx.app, 'ann@example.test');
    await requestChange(ann);
    const link = await changeLink();
    ctx.advance(60 * 60_000);
    expect((await follow(link)).searchParams.get('validation')).toBe('0');
    expect(emailOf()).toBe('ann@example.test');
  });

  it('is voided by a password change made after it was sent (the owner stopping an intruder’s change)', async () => {
    const ann = await login(ctx.app, 'ann@example.test');
    await requestChange(ann);
    const link = await changeLink();
    const changed = await ann.request('PUT', '/api/user/password', {
      current_password: DEFAULT_TEST_PASSWORD,
      password: STRONG_PASSWORD,
      password_confirmation: STRONG_PASSWORD,
    });
    expect(changed.status).toBe(200);
    expect((await follow(link)).searchParams.get('validation')).toBe('0');
    expect(emailOf()).toBe('ann@example.test');
  });

  it('refuses the change when the address was taken after the link was sent', async () => {
    const ann = await login(ctx.app, 'ann@example.test');
    await requestChange(ann);
    const link = await changeLink();
    await createUser(ctx, { email: NEW });
    const target = await follow(link);
    expect(target.searchParams.get('validation')).toBe('0');
    expect(target.searchParams.get('message')).toBe('This email address is already in use.');
    expect(emailOf()).toBe('ann@example.test');
  });
});
