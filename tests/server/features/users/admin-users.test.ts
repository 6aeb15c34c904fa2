// The admin's user actions: the full list, the paged table, editing any user, ban/unban, delete, and the
// rules that keep an admin able to sign in (no self-ban, self-delete or self-demotion; never the last admin).
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessions } from '../../../../server/db/schema.ts';
import { insertUser } from '../../../../server/db/queries/users.ts';
import { assertAdminRemovalAllowed } from '../../../../server/features/users/admin-protection.ts';
import { adminUserSchema, applyAdminUserEdit } from '../../../../server/features/users/admin-user-edit.ts';
import { createUser, login } from '../../../helpers/auth.ts';
import { waitForMailTo } from '../../../helpers/accounts.ts';
import { createRecordingPublisher, type RecordingPublisher } from '../../../helpers/test-context.ts';
import { countStatements } from '../../../helpers/statement-count.ts';
import { createAdminFixture, json, type AdminFixture } from '../../admin/admin-fixture.ts';

let fixture: AdminFixture;
let publisher: RecordingPublisher;
beforeEach(async () => {
  publisher = createRecordingPublisher();
  fixture = await createAdminFixture({ publisher });
});
afterEach(() => fixture.ctx.cleanup());

/** Above what an answer of the admin's lists runs (5 today: the session, a setting, one read per table or count), far below one per user. */
const STATEMENTS_PER_ANSWER = 20;

const sessionCount = (userId: number) => fixture.ctx.db.select().from(sessions).where(eq(sessions.user_id, userId)).all().length;

describe('GET /api/license/getAll', () => {
  it('answers every user as the admin sees them, every license with its type name, and the license types', async () => {
    const { admin, user } = fixture;
    await admin.request('POST', '/api/license/store', { license_type_id: fixture.typeId('trial'), user_id: user.user.id, expire: 30 });
    const body = await json<{ users: Array<Record<string, unknown>>; licenses: Array<Record<string, unknown>>; license_types: Array<{ name: string }> }>(
      await admin.request('GET', '/api/license/getAll'),
    );
    expect(body.users.map((row) => row.email)).toEqual(['boss@example.test', 'ann@example.test']);
    expect(body.users[1]).toMatchObject({ id: user.user.id, license_request: 0, license_granted: 1, is_banned: 0, role: 'user', unsubscribed_at: null });
    for (const row of body.users) expect(row).not.toHaveProperty('password_hash');
    expect(body.licenses).toEqual([expect.objectContaining({ user_id: user.user.id, active: 1, expire: 30, license_type: { name: 'trial' } })]);
    expect(body.license_types.map((type) => type.name)).toEqual(['trial', 'perpetual']);
  });

  it('reads 10,000 users with a handful of statements, one per table and not one per user', async () => {
    const insert = fixture.ctx.db.$client.prepare("insert into users (name, email, password_hash, company_name) values (?, ?, 'x', ?)");
    fixture.ctx.db.$client.transaction(() => {
      for (let i = 0; i < 10_000; i += 1) insert.run(`User ${i}`, `user${i}@bulk.test`, `Company ${i % 97}`);
    })();
    const all = await countStatements(fixture.ctx.db.$client, async () =>
      json<{ users: unknown[] }>(await fixture.admin.request('GET', '/api/license/getAll')),
    );
    expect(all.result.users).toHaveLength(10_002);
    // The session, a setting and one read per table (users, licenses, license types): a read per user
    // would be 10,000 more.
    expect(all.statements).toBeLessThan(STATEMENTS_PER_ANSWER);

    const paged = await countStatements(fixture.ctx.db.$client, async () =>
      json<{ users: unknown[]; total: number }>(await fixture.admin.request('GET', '/api/admin/users?query=company%2042&sort=name&dir=desc&limit=50')),
    );
    expect(paged.result.total).toBeGreaterThan(100);
    expect(paged.result.users).toHaveLength(50);
    expect(paged.statements).toBeLessThan(STATEMENTS_PER_ANSWER);
  });
});

describe('GET /api/admin/users', () => {
  beforeEach(() => {
    const rows = [
      { name: 'bob', surname: 'Zed', companyName: 'Acme 100%', email: 'bob@a.test', license_request: 1 },
      { name: 'Carol', surname: null, companyName: 'acme_labs', email: 'carol@b.test', license_request: 0 },
      { name: 'alice', surname: 'Young', companyName: null, email: 'alice@c.test', license_request: 1 },
      { name: 'Dave', surname: 'Xu', companyName: 'Other', email: 'dave@acme.test', license_request: 0 },
    ];
    for (const row of rows) insertUser(fixture.ctx.db, { ...row, password_hash: 'x' });
  });

  type Page = { users: Array<{ id: number; name: string; email: string }>; licenses: unknown[]; total: number; next_cursor: string | null };
  const page = async (query: string) => json<Page>(await fixture.admin.request('GET', `/api/admin/users?${query}`));

  /** Follows next_cursor to the end and returns the names in order. */
  async function allPages(query: string): Promise<string[]> {
    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const answer: Page = await page(`${query}${cursor ? `&cursor=${cursor}` : ''}`);
      names.push(...answer.users.map((user) => user.name));
      cursor = answer.next_cursor;
    } while (cursor);
    return names;
  }

  it('sorts text case-insensitively in both directions (1 / -1 as the spec toggles) across pages', async () => {
    expect(await allPages('sort=name&dir=1&limit=2')).toEqual(['alice', 'Ann', 'bob', 'Boss', 'Carol', 'Dave']);
    expect(await allPages('sort=name&dir=-1&limit=4')).toEqual(['Dave', 'Carol', 'Boss', 'bob', 'Ann', 'alice']);
  });

  it('sorts numbers numerically, ties by id, and empty values first', async () => {
    const byRequest = await page('sort=license_request&dir=desc&limit=100');
    expect(byRequest.users.slice(0, 2).map((user) => user.name)).toEqual(['alice', 'bob']);
    const bySurname = await allPages('sort=surname&limit=1');
    expect(bySurname.slice(-3)).toEqual(['Dave', 'alice', 'bob']);
    // Boss, Ann and Carol have no surname: they come first, in id order.
    expect(bySurname.slice(0, 3)).toEqual(['Boss', 'Ann', 'Carol']);
  });

  it('filters by name, surname, company and e-mail, with % and _ taken literally', async () => {
    expect((await page('query=acme')).users.map((user) => user.name)).toEqual(['bob', 'Carol', 'Dave']);
    expect((await page('query=YOUNG')).users.map((user) => user.name)).toEqual(['alice']);
    expect((await page('query=100%25')).users.map((user) => user.name)).toEqual(['bob']);
    expect((await page('query=acme_')).users.map((user) => user.name)).toEqual(['Carol']);
    expect((await page('query=acme&limit=1')).total).toBe(3);
  });

  it('answers the licenses of the users on the page', async () => {
    const { admin, user } = fixture;
    await admin.request('POST', '/api/license/store', { license_type_id: fixture.typeId('trial'), user_id: user.user.id, expire: 5 });
    expect((await page('query=ann')).licenses).toHaveLength(1);
    expect((await page('query=bob')).licenses).toHaveLength(0);
  });

  it('refuses a cursor made for another sort, a forged cursor and unknown columns with 422', async () => {
    const first = await page('sort=name&limit=1');
    expect(first.next_cursor).not.toBeNull();
    for (const query of [`sort=email&limit=1&cursor=${first.next_cursor}`, 'cursor=bm9wZQ', 'sort=password_hash', 'dir=up', 'limit=0']) {
      const response = await fixture.admin.request('GET', `/api/admin/users?${query}`);
      expect(response.status, query).toBe(422);
      expect(await json(response)).toHaveProperty('errors');
    }
  });
});

describe('PUT /api/user/update/{id} by an admin', () => {
  it('edits any user’s profile, role, verification and license request, answering the admin user', async () => {
    const { admin, user } = fixture;
    const response = await admin.request('PUT', `/api/user/update/${user.user.id}`, {
      ...user.user,
      name: 'Annie',
      companyName: 'Ann Ltd',
      role: 'admin',
      email_verified_at: null,
      license_request: 1,
    });
    expect(response.status).toBe(200);
    const body = await json<{ message: string; user: Record<string, unknown> }>(response);
    expect(body.message).toBe('User updated.');
    expect(body.user).toMatchObject({ name: 'Annie', companyName: 'Ann Ltd', role: 'admin', email_verified_at: null, license_request: 1 });
    expect(fixture.stored(user.user.id)).toMatchObject({ name: 'Annie', role: 'admin', email_verified_at: null });

    // Toggling verification back on stamps it now; echoing the stamp later keeps it.
    const verified = await json<{ user: { email_verified_at: string } }>(
      await admin.request('PUT', `/api/user/update/${user.user.id}`, { email_verified_at: true }),
    );
    expect(verified.user.email_verified_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const echoed = await json<{ user: { email_verified_at: string } }>(
      await admin.request('PUT', `/api/user/update/${user.user.id}`, { email_verified_at: verified.user.email_verified_at }),
    );
    expect(echoed.user.email_verified_at).toBe(verified.user.email_verified_at);
  });

  it('clears verification when the e-mail changes and mails a verification link to the new address', async () => {
    const { admin, user } = fixture;
    const response = await admin.request('PUT', `/api/user/update/${user.user.id}`, { ...user.user, email: 'ann.new@example.test' });
    expect(response.status).toBe(200);
    expect(fixture.stored(user.user.id)).toMatchObject({ email: 'ann.new@example.test', email_verified_at: null });
    const mail = await waitForMailTo(fixture.ctx.config.outboxDir, 'ann.new@example.test');
    expect(mail.subject).toContain('Verify your e-mail address');
  });

  it('refuses an e-mail another account holds, in any letter case', async () => {
    const response = await fixture.admin.request('PUT', `/api/user/update/${fixture.user.user.id}`, { email: 'BOSS@example.test' });
    expect(response.status).toBe(422);
    expect(await json(response)).toMatchObject({ errors: { email: ['The email has already been taken.'] } });
  });

  it('banning through the edit ends the user’s sessions at once', async () => {
    const { admin, user } = fixture;
    expect((await admin.request('PUT', `/api/user/update/${user.user.id}`, { is_banned: true })).status).toBe(200);
    expect(sessionCount(user.user.id)).toBe(0);
    expect((await user.request('GET', '/api/user')).status).toBe(401);
  });

  it('refuses changes to read-only fields (echoes pass) and validates the rest', async () => {
    const { admin, user } = fixture;
    const readOnly = await admin.request('PUT', `/api/user/update/${user.user.id}`, { license_granted: 1, password: 'new-password-123' });
    expect(readOnly.status).toBe(403);
    expect((await json<{ message: string }>(readOnly)).message).toBe('These fields cannot be changed here: password, license_granted.');
    const invalid = await admin.request('PUT', `/api/user/update/${user.user.id}`, { role: 'super admin', is_banned: 'maybe', email: 'nope' });
    expect(invalid.status).toBe(422);
    expect(Object.keys((await json<{ errors: object }>(invalid)).errors).sort()).toEqual(['email', 'is_banned', 'role']);
    expect((await admin.request('PUT', '/api/user/update/999999', { name: 'x' })).status).toBe(404);
    expect(fixture.stored(user.user.id)).toMatchObject({ name: 'Ann', role: 'user', is_banned: 0 });
  });

  it('republishes when the name of a post author changes (posts show it)', async () => {
    const { admin, user } = fixture;
    fixture.ctx.db.$client.prepare("insert into sections (namespace, title, title_slug) values ('news', 'S', 's')").run();
    fixture.ctx.db.$client.prepare("insert into posts (namespace, section_id, title, title_slug, user_id) values ('news', 1, 'P', 'p', ?)").run(user.user.id);
    await admin.request('PUT', `/api/user/update/${user.user.id}`, { phone: '123' });
    expect(publisher.reasons).toEqual([]);
    await admin.request('PUT', `/api/user/update/${user.user.id}`, { name: 'Annabel' });
    expect(publisher.reasons).toHaveLength(1);
  });

  it('leaves users editing themselves to the profile rules', async () => {
    const { user } = fixture;
    expect((await user.request('PUT', `/api/user/update/${user.user.id}`, { name: 'Me' })).status).toBe(200);
    expect((await user.request('PUT', `/api/user/update/${user.user.id}`, { role: 'admin' })).status).toBe(403);
  });
});

describe('PUT /api/user/suspend/{id}', () => {
  it('bans: the user’s open session is logged out at once; unban lets them log in again', async () => {
    const { admin, user } = fixture;
    expect((await user.request('GET', '/api/user')).status).toBe(200);
    const banned = await admin.request('PUT', `/api/user/suspend/${user.user.id}`, { is_banned: 1, id: user.user.id });
    expect(banned.status).toBe(200);
    expect(await json(banned)).toMatchObject({ message: 'User banned.', user: { id: user.user.id, is_banned: 1 } });
    expect(sessionCount(user.user.id)).toBe(0);
    expect((await user.request('GET', '/api/user')).status).toBe(401);
    await expect(login(fixture.ctx.app, 'ann@example.test')).rejects.toThrow();

    const unbanned = await admin.request('PUT', `/api/user/suspend/${user.user.id}`, { is_banned: false, id: user.user.id });
    expect(await json(unbanned)).toMatchObject({ message: 'User unbanned.', user: { is_banned: 0 } });
    expect((await login(fixture.ctx.app, 'ann@example.test')).user.id).toBe(user.user.id);
  });

  it('validates the flag and the id, and answers 404 for unknown users', async () => {
    const { admin, user } = fixture;
    expect((await admin.request('PUT', `/api/user/suspend/${user.user.id}`, { id: user.user.id })).status).toBe(422);
    expect((await admin.request('PUT', `/api/user/suspend/${user.user.id}`, { is_banned: 1, id: user.user.id + 1 })).status).toBe(422);
    expect((await admin.request('PUT', '/api/user/suspend/99999', { is_banned: 1 })).status).toBe(404);
    expect(fixture.stored(user.user.id)?.is_banned).toBe(0);
  });
});

describe('DELETE /api/user/delete/{id}', () => {
  it('hard-deletes the user with their sessions and licenses; their client is logged out', async () => {
    const { admin, user } = fixture;
    await admin.request('POST', '/api/license/store', { license_type_id: fixture.typeId('trial'), user_id: user.user.id, expire: 30 });
    const response = await admin.request('DELETE', `/api/user/delete/${user.user.id}`);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ message: 'User deleted.', id: user.user.id });
    expect(fixture.stored(user.user.id)).toBeUndefined();
    expect(sessionCount(user.user.id)).toBe(0);
    expect(fixture.ctx.db.$client.prepare('select count(*) as n from licenses').get()).toEqual({ n: 0 });
    expect((await user.request('GET', '/api/user')).status).toBe(401);
    expect((await admin.request('DELETE', `/api/user/delete/${user.user.id}`)).status).toBe(404);
  });
});

describe('keeping an admin able to sign in', () => {
  it('refuses self-ban, self-delete and self-demotion with 403 and a message, changing nothing', async () => {
    const { admin } = fixture;
    const id = admin.user.id;
    const attempts = [
      { method: 'PUT', path: `/api/user/suspend/${id}`, body: { is_banned: 1, id }, message: 'You cannot ban yourself.' },
      { method: 'PUT', path: `/api/user/update/${id}`, body: { is_banned: 1 }, message: 'You cannot ban yourself.' },
      { method: 'DELETE', path: `/api/user/delete/${id}`, body: undefined, message: 'You cannot delete your own account.' },
      { method: 'PUT', path: `/api/user/update/${id}`, body: { role: 'user' }, message: 'You cannot remove your own admin role.' },
    ];
    for (const attempt of attempts) {
      const response = await admin.request(attempt.method, attempt.path, attempt.body);
      expect(response.status, attempt.path).toBe(403);
      expect((await json<{ message: string }>(response)).message).toBe(attempt.message);
    }
    expect(fixture.stored(id)).toMatchObject({ role: 'admin', is_banned: 0 });
    expect((await admin.request('GET', '/api/user')).status).toBe(200);
  });

  it('lets an admin remove another admin, but never the last one who can sign in', async () => {
    const { ctx, admin } = fixture;
    const second = await createUser(ctx, { email: 'second@example.test', role: 'admin' });
    const secondClient = await login(ctx.app, 'second@example.test');
    // Two admins: one may demote the other…
    expect((await secondClient.request('PUT', `/api/user/update/${admin.user.id}`, { role: 'user' })).status).toBe(200);
    // …and the demoted one is no longer an admin for the next request.
    expect((await admin.request('PUT', `/api/user/suspend/${second.id}`, { is_banned: 1 })).status).toBe(403);
    expect(fixture.stored(second.id)).toMatchObject({ role: 'admin', is_banned: 0 });
  });

  it('never removes the last admin who can sign in, whoever asks (checked inside the write transaction)', async () => {
    const { ctx, admin } = fixture;
    const boss = fixture.stored(admin.user.id);
    if (!boss) throw new Error('boss missing');
    // A banned admin does not count: the boss is the last admin who can sign in.
    const retired = await createUser(ctx, { email: 'retired@example.test', role: 'admin', banned: true });
    for (const [removal, message] of [
      ['ban', 'The last admin cannot be banned.'],
      ['delete', 'The last admin cannot be deleted.'],
      ['demote', 'The last admin cannot lose the admin role.'],
    ] as const) {
      expect(() => assertAdminRemovalAllowed(ctx.db, retired.id, boss, removal)).toThrow(expect.objectContaining({ status: 422, message }));
    }
    // The acting admin is re-read in the transaction: one banned since their request was authorised cannot act.
    expect(() => applyAdminUserEdit(ctx, retired.id, boss.id, adminUserSchema.parse({ role: 'user' }))).toThrow(expect.objectContaining({ status: 403 }));
    expect(fixture.stored(boss.id)).toMatchObject({ role: 'admin', is_banned: 0 });
  });
});
