// DELETE /api/user/account (docs/product/accounts.md#your-data, docs/decisions/0025-own-data.md): the password
// again, throttled; never the last admin; the account and what it owns go in one transaction, what the
// product keeps stays, unlinked; every session ends and the answer clears the cookie.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LAST_ADMIN_SELF_DELETE_MESSAGE } from '../../../../server/features/users/admin-protection.ts';
import { createUser, login, type LoggedInClient } from '../../../helpers/auth.ts';
import { createOwnDataFixture, type OwnDataFixture } from './own-data-fixture.ts';
import { json } from '../../admin/admin-fixture.ts';
import { anonymousClient } from '../../../helpers/accounts.ts';
import { codeFor, enrollTwoFactor } from '../../../helpers/two-factor.ts';
import { latestMailTo } from '../../../helpers/mail.ts';

const PASSWORD = 'correct horse battery staple';

let fixture: OwnDataFixture;
afterEach(() => fixture.ctx.cleanup());

/** Everything of Ann's the deletion removes, and what it keeps, as row counts. */
function annState(f: OwnDataFixture) {
  const ann = f.user.user.id;
  return {
    user: f.count('users', `id = ${ann}`),
    sessions: f.count('sessions', `user_id = ${ann}`),
    licenses: f.count('licenses', `user_id = ${ann}`),
    machines: f.count('license_machines', `license_id = ${f.annLicenseId}`),
    events: f.count('license_events', `license_id = ${f.annLicenseId}`),
    mailingRows: f.count('mailing_recipients', `user_id = ${ann}`),
    contactMessages: f.count('contact_messages', "email = 'ANN@example.test'"),
    downloadsLinked: f.count('release_downloads', `user_id = ${ann}`),
    downloadsTotal: f.count('release_downloads'),
  };
}

/** What someone else has: never touched by Ann's deletion. */
function othersState(f: OwnDataFixture) {
  return {
    users: f.count('users', `id <> ${f.user.user.id}`),
    licenses: f.count('licenses', `user_id = ${f.bobId}`),
    machines: f.count('license_machines', `license_id = ${f.bobLicenseId}`),
    events: f.count('license_events', `license_id = ${f.bobLicenseId}`),
    mailingRows: f.count('mailing_recipients', `user_id = ${f.bobId}`),
    contactMessages: f.count('contact_messages', "email = 'bob@example.test'"),
    downloads: f.count('release_downloads', `user_id = ${f.bobId}`),
    mailings: f.count('mailings'),
  };
}

const deleteAccount = (client: LoggedInClient, body: unknown) => client.request('DELETE', '/api/user/account', body);

describe('DELETE /api/user/account', () => {
  beforeEach(async () => {
    fixture = await createOwnDataFixture();
  });

  it('removes the user, their sessions (the old cookie answers 401), licenses, machines, events, mailing rows and contact messages; keeps the download log unlinked', async () => {
    const { ctx, user: ann } = fixture;
    const otherDevice = await login(ctx.app, 'ann@example.test');
    const oldCookie = ann.cookieHeader;
    const before = othersState(fixture);
    expect(annState(fixture)).toEqual({
      user: 1,
      sessions: 2,
      licenses: 1,
      machines: 1,
      events: 1,
      mailingRows: 2,
      contactMessages: 1,
      downloadsLinked: 1,
      downloadsTotal: 2,
    });

    const response = await deleteAccount(ann, { password: PASSWORD });
    expect(response.status).toBe(204);
    const cleared = response.headers.getSetCookie().find((line) => line.startsWith('session='));
    expect(cleared).toMatch(/Max-Age=0/i);
    expect(response.headers.getSetCookie().some((line) => /^signed_in=;.*Max-Age=0/i.test(line))).toBe(true);

    expect(annState(fixture)).toEqual({
      user: 0,
      sessions: 0,
      licenses: 0,
      machines: 0,
      events: 0,
      mailingRows: 0,
      contactMessages: 0,
      downloadsLinked: 0,
      // Kept, linked to nobody: the counts per release stay true.
      downloadsTotal: 2,
    });
    expect(othersState(fixture)).toEqual(before);

    const replayed = await ctx.app.request('/api/user', { headers: { Cookie: oldCookie, Accept: 'application/json' } });
    expect(replayed.status).toBe(401);
    expect((await otherDevice.request('GET', '/api/user')).status).toBe(401);
    await expect(login(ctx.app, 'ann@example.test')).rejects.toThrow(/answered 422/);
  });

  it('mails the owner a confirmation once the account is gone (issue 28, item 5), and nothing when the deletion is refused', async () => {
    const { ctx, user: ann } = fixture;
    expect((await deleteAccount(ann, { password: 'wrong password here' })).status).toBe(422);
    expect(latestMailTo(ctx.config.outboxDir, 'ann@example.test')?.subject ?? '').not.toMatch(/deleted/);
    expect((await deleteAccount(ann, { password: PASSWORD })).status).toBe(204);
    const mail = latestMailTo(ctx.config.outboxDir, 'ann@example.test');
    expect(mail?.subject).toBe('Dimensional Control: Your account was deleted');
    expect(mail?.text).toContain('has been deleted');
  });

  it('with two-factor on, also asks for a current code: missing or wrong answers 422 on code and changes nothing', async () => {
    const { ctx, user: ann } = fixture;
    const { secret } = await enrollTwoFactor(ann, ctx.now);
    const before = annState(fixture);
    const missing = await deleteAccount(ann, { password: PASSWORD });
    expect(missing.status).toBe(422);
    expect((await json(missing)).errors).toHaveProperty('code');
    const wrong = await deleteAccount(ann, { password: PASSWORD, code: '000000' === codeFor(secret, ctx.now()) ? '111111' : '000000' });
    expect(wrong.status).toBe(422);
    expect((await json(wrong)).errors).toHaveProperty('code');
    expect(annState(fixture)).toEqual(before);
    // The enrolment's code was spent; the next step's code is fresh (one step of drift is accepted).
    const accepted = await deleteAccount(ann, { password: PASSWORD, code: codeFor(secret, ctx.now(), 1) });
    expect(accepted.status).toBe(204);
    expect(annState(fixture).user).toBe(0);
  });

  it('refuses a wrong or missing password with 422 on the password field, and changes nothing', async () => {
    const { user: ann } = fixture;
    const before = { ann: annState(fixture), others: othersState(fixture) };
    const wrong = await deleteAccount(ann, { password: 'not my password' });
    expect(wrong.status).toBe(422);
    expect(await json(wrong)).toEqual({ message: 'The password is incorrect.', errors: { password: ['The password is incorrect.'] } });
    const missing = await deleteAccount(ann, {});
    expect(missing.status).toBe(422);
    expect(await json(missing)).toMatchObject({ errors: { password: ['The password field is required.'] } });
    expect({ ann: annState(fixture), others: othersState(fixture) }).toEqual(before);
    expect((await ann.request('GET', '/api/user')).status).toBe(200);
  });

  it('accepts the optional two-factor code field (checked only for users with two-factor on)', async () => {
    const response = await deleteAccount(fixture.user, { password: PASSWORD, code: '123456' });
    expect(response.status).toBe(204);
    expect(annState(fixture).user).toBe(0);
  });

  it('never deletes the last admin who can sign in; another admin may delete themselves, and their actions on others stay, unlinked', async () => {
    const { ctx, admin } = fixture;
    const refused = await deleteAccount(admin, { password: PASSWORD });
    expect(refused.status).toBe(422);
    expect((await json(refused)).message).toBe(LAST_ADMIN_SELF_DELETE_MESSAGE);
    expect(fixture.stored(admin.user.id)).toMatchObject({ role: 'admin' });
    expect((await admin.request('GET', '/api/user')).status).toBe(200);

    // A banned admin cannot sign in, so does not count: still the last one.
    await createUser(ctx, { email: 'retired@example.test', role: 'admin', banned: true });
    expect((await deleteAccount(admin, { password: PASSWORD })).status).toBe(422);

    await createUser(ctx, { email: 'deputy@example.test', role: 'admin' });
    const eventsOfAnn = fixture.count('license_events', `license_id = ${fixture.annLicenseId}`);
    expect((await deleteAccount(admin, { password: PASSWORD })).status).toBe(204);
    expect(fixture.stored(admin.user.id)).toBeUndefined();
    // Boss granted Ann's license: the event stays on Ann's license, its actor now nobody; the mailings Boss wrote stay.
    expect(fixture.count('license_events', `license_id = ${fixture.annLicenseId} and actor_kind = 'admin' and actor_user_id is null`)).toBe(eventsOfAnn);
    expect(fixture.count('mailings', 'created_by is null')).toBe(2);
  });

  it('leaves everything as it was when the deletion fails half way (one transaction)', async () => {
    const { ctx, user: ann } = fixture;
    const before = { ann: annState(fixture), others: othersState(fixture) };
    // The sessions and contact messages are deleted before the user row; the row's delete then fails.
    ctx.db.$client.exec(
      `create trigger refuse_user_delete before delete on users when old.id = ${ann.user.id} begin select raise(abort, 'refused by test'); end`,
    );
    const response = await deleteAccount(ann, { password: PASSWORD });
    expect(response.status).toBe(500);
    expect({ ann: annState(fixture), others: othersState(fixture) }).toEqual(before);
    expect((await ann.request('GET', '/api/user')).status).toBe(200);
  });

  it('answers 401 to a visitor without a session, deleting nothing', async () => {
    const visitor = await anonymousClient(fixture.ctx.app);
    const response = await visitor.request('DELETE', '/api/user/account', { password: PASSWORD });
    expect(response.status).toBe(401);
    expect(annState(fixture).user).toBe(1);
  });
});

describe('DELETE /api/user/account throttling', () => {
  beforeEach(async () => {
    fixture = await createOwnDataFixture({ fakeClock: true });
  });

  it('allows five attempts per account in 15 minutes, then 429 with Retry-After even for the right password', async () => {
    const { ctx, user: ann } = fixture;
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await deleteAccount(ann, { password: 'guess' })).status).toBe(422);
    const throttled = await deleteAccount(ann, { password: PASSWORD });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await json(throttled)).toMatchObject({
      message: expect.stringMatching(/^Too many requests\. Please try again in \d+ seconds\.$/),
      errors: { password: [expect.any(String)] },
    });
    expect(annState(fixture).user).toBe(1);

    // Another account is not held back by Ann's attempts.
    expect((await deleteAccount(await login(ctx.app, 'bob@example.test'), { password: 'guess' })).status).toBe(422);

    ctx.advance(15 * 60_000);
    expect((await deleteAccount(ann, { password: PASSWORD })).status).toBe(204);
  });
});
