// GET /api/user/export (docs/product/accounts.md#your-data): the signed-in user's own data as a JSON file,
// every listed part present, and nothing secret or belonging to someone else in it.
import { insertLicenseRequest } from '../../../../server/features/licensing/queries.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessions } from '../../../../server/db/schema.ts';
import { EXPORT_FORMAT, EXPORT_VERSION, type AccountExport } from '../../../../server/features/own-data/present.ts';
import { createUser, login } from '../../../helpers/auth.ts';
import { createOwnDataFixture, type OwnDataFixture } from './own-data-fixture.ts';

let fixture: OwnDataFixture;
beforeEach(async () => {
  fixture = await createOwnDataFixture();
});
afterEach(() => fixture.ctx.cleanup());

async function exportOf(client: OwnDataFixture['user']): Promise<{ response: Response; text: string; document: AccountExport }> {
  const response = await client.request('GET', '/api/user/export');
  const text = await response.text();
  return { response, text, document: JSON.parse(text) as AccountExport };
}

describe('GET /api/user/export', () => {
  it('answers a JSON attachment, not cached, with the format named', async () => {
    const { response, document } = await exportOf(fixture.user);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(response.headers.get('Content-Disposition')).toMatch(/^attachment; filename="account-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    expect(document).toMatchObject({ format: EXPORT_FORMAT, version: EXPORT_VERSION });
    expect(Date.parse(document.exported_at)).not.toBeNaN();
  });

  it('holds the profile, licenses with machines and events, sessions, downloads, mailings received, contact messages and the license request', async () => {
    const ann = fixture.user.user;
    insertLicenseRequest(fixture.ctx.db, ann.id, '2026-01-02T03:04:05.000Z');
    const { document } = await exportOf(fixture.user);
    expect(document.profile).toMatchObject({ id: ann.id, name: 'Ann', email: 'ann@example.test', role: 'user', unsubscribed_at: null });
    expect(document.profile.email_verified_at).toEqual(expect.any(String));
    expect(document.license_request.pending).toBe(true);
    // The requests the admin inbox keeps, with their answer (null while open).
    expect(document.license_request.requests).toContainEqual({ created_at: '2026-01-02T03:04:05.000Z', handled_at: null, outcome: null, decline_reason: null });

    expect(document.licenses).toHaveLength(1);
    const [license] = document.licenses;
    expect(license).toMatchObject({ id: fixture.annLicenseId, user_id: ann.id, license_type: { name: 'trial' }, key: expect.stringMatching(/^DCTL-/) });
    expect(license?.machines).toEqual([expect.objectContaining({ name: 'Ann laptop', platform: 'linux', fingerprint: 'ann-laptop-fp' })]);
    // The admin's grant is an event of Ann's license; the admin's name is not Ann's data.
    expect(license?.events).toEqual([expect.objectContaining({ action: 'created', actor_kind: 'admin' })]);
    expect(license?.events[0]).not.toHaveProperty('actor_name');

    expect(document.sessions).toEqual([expect.objectContaining({ current: true, persistent: false })]);
    const [session] = document.sessions;
    expect(Object.keys(session ?? {}).sort()).toEqual([
      'browser',
      'created_at',
      'current',
      'ends_at',
      'expires_at',
      'ip',
      'last_active_at',
      'persistent',
      'system',
    ]);

    expect(document.downloads).toEqual([{ title: 'Suite 2', release: '2.0', file_name: 'suite-2.0.zip', downloaded_at: expect.any(String) }]);
    // Sent ones only: the pending mailing never reached her.
    expect(document.mailings_received).toEqual([{ subject: 'Autumn news', sent_at: expect.any(String) }]);
    expect(document.contact_messages).toEqual([
      { name: 'Ann', email: 'ANN@example.test', message: 'Do you ship to Malta?', ip: '203.0.113.7', sent_at: expect.any(String) },
    ]);
  });

  it('never holds the password hash, a session id or token, or anything of another user', async () => {
    const { ctx, user: ann } = fixture;
    const second = await login(ctx.app, 'ann@example.test');
    const { text, document } = await exportOf(ann);
    const stored = ctx.db.$client.prepare('select password_hash from users where id = ?').get(ann.user.id) as { password_hash: string };
    expect(text).not.toContain(stored.password_hash);
    expect(text).not.toContain('password');
    for (const row of ctx.db.select({ id: sessions.id }).from(sessions).all()) expect(text).not.toContain(row.id);
    for (const client of [ann, second]) {
      for (const [name, value] of client.cookies) if (name.includes('session') || name === 'XSRF-TOKEN') expect(text).not.toContain(value);
    }
    expect(document.sessions.map((session) => session.current).sort()).toEqual([false, true]);
    expect(text).not.toMatch(/Bob|bob-fp/);
  });

  it('leaves out contact messages while the address is unverified: registering an address proves nothing', async () => {
    const { ctx } = fixture;
    await createUser(ctx, { email: 'bob2@example.test', verified: false });
    ctx.db.$client.prepare("insert into contact_messages (name, email, message) values ('Real owner', 'bob2@example.test', 'private')").run();
    const { document } = await exportOf(await login(ctx.app, 'bob2@example.test'));
    expect(document.contact_messages).toEqual([]);
  });

  it('answers 401 to a visitor who is not signed in', async () => {
    const { ctx } = fixture;
    const response = await ctx.app.request('/api/user/export');
    expect(response.status).toBe(401);
  });
});
