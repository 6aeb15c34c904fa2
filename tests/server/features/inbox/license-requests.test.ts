// A license request answered from the inbox (docs/admin-api.md#inbox): Grant trial through the license form's own grant
// (license, flags, events, mail), Decline with a reason mailed to the user; either closes the request for good, and a grant
// made on the license form closes it too.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { licenseEvents, licenses, licenseRequests } from '../../../../server/db/schema.ts';
import { insertLicenseRequest, backfillLicenseRequests } from '../../../../server/features/licensing/queries.ts';
import { setLicenseRequest } from '../../../../server/db/queries/users.ts';
import { latestMailTo, readOutbox } from '../../../helpers/mail.ts';
import { createAdminFixture, json, type AdminFixture } from '../../admin/admin-fixture.ts';
import { listInbox, requestLicense, type InboxItemAnswer } from './inbox-fixture.ts';

let fixture: AdminFixture;
beforeEach(async () => {
  fixture = await createAdminFixture({ fakeClock: true });
});
afterEach(() => fixture.ctx.cleanup());

async function pendingRequest(): Promise<InboxItemAnswer> {
  await requestLicense(fixture.user);
  const request = (await listInbox(fixture.admin)).items.find((item) => item.kind === 'license-request');
  if (!request) throw new Error('the request is not in the inbox');
  return request;
}

const userSession = async () =>
  json<{ user: { license_request: number; license_granted: number }; licenses: Array<{ license_type: { name: string } }> }>(
    await fixture.user.request('GET', '/api/user'),
  );

describe('POST /api/admin/inbox/license-request/{id}/grant', () => {
  it('grants an active trial for the days given, mails the user the key, and closes the request', async () => {
    const request = await pendingRequest();
    const response = await fixture.admin.request('POST', `/api/admin/inbox/license-request/${request.id}/grant`, { days: '14' });
    expect(response.status).toBe(200);
    const answer = await json<{
      message: string;
      license: { key: string; expire: number; active: number; expire_date: string };
      item: InboxItemAnswer;
      mail_sent: boolean;
    }>(response);
    expect(answer.message).toBe('License granted; the user was e-mailed.');
    expect(answer.license).toMatchObject({ active: 1, expire: 14, expire_date: '2026-01-15T00:00:00.000Z' });
    expect(answer.item).toMatchObject({ outcome: 'granted', handled_by: { name: 'Boss' } });
    expect(answer.item.handled_at).not.toBeNull();

    const mail = latestMailTo(fixture.ctx.config.outboxDir, 'ann@example.test');
    expect(mail?.subject).toBe('Dimensional Control: Your license is active');
    expect(mail?.text).toContain(answer.license.key);
    const session = await userSession();
    expect(session.user).toMatchObject({ license_request: 0, license_granted: 1 });
    expect(session.licenses.map((license) => license.license_type.name)).toEqual(['trial']);
    // Recorded like any admin grant.
    const stored = fixture.ctx.db.select().from(licenses).where(eq(licenses.user_id, fixture.user.user.id)).all();
    expect(
      fixture.ctx.db
        .select()
        .from(licenseEvents)
        .where(eq(licenseEvents.license_id, stored[0]?.id ?? 0))
        .all(),
    ).toEqual([expect.objectContaining({ actor_kind: 'admin', actor_user_id: fixture.admin.user.id, action: 'created' })]);

    // Answered once: a second grant changes nothing.
    const again = await fixture.admin.request('POST', `/api/admin/inbox/license-request/${request.id}/grant`, { days: 14 });
    expect(again.status).toBe(409);
    expect((await json<{ message: string }>(again)).message).toBe('This license request has already been handled.');
    expect(fixture.ctx.db.select().from(licenses).all()).toHaveLength(1);
    // Nor after a Reopen: the request was answered.
    expect((await fixture.admin.request('POST', `/api/admin/inbox/license-request/${request.id}/reopen`)).status).toBe(200);
    expect((await fixture.admin.request('POST', `/api/admin/inbox/license-request/${request.id}/grant`, { days: 14 })).status).toBe(409);
    expect(fixture.ctx.db.select().from(licenses).all()).toHaveLength(1);
  });

  it('refuses days that are not a whole number from 1, creating nothing', async () => {
    const request = await pendingRequest();
    for (const days of [0, -3, 'ten', 2.5, 40_000, null]) {
      const response = await fixture.admin.request('POST', `/api/admin/inbox/license-request/${request.id}/grant`, { days });
      expect(response.status, JSON.stringify(days)).toBe(422);
      expect(Object.keys((await json<{ errors: Record<string, string[]> }>(response)).errors)).toEqual(['days']);
    }
    expect(fixture.ctx.db.select().from(licenses).all()).toHaveLength(0);
    expect((await userSession()).user.license_request).toBe(1);
  });

  it('a grant on the license form closes the inbox item too', async () => {
    const request = await pendingRequest();
    const stored = await fixture.admin.request('POST', '/api/license/store', {
      license_type_id: fixture.typeId('trial'),
      user_id: fixture.user.user.id,
      expire: 30,
    });
    expect(stored.status).toBe(201);
    const item = (await listInbox(fixture.admin, '?status=handled')).items.find((candidate) => candidate.id === request.id);
    expect(item).toMatchObject({ kind: 'license-request', outcome: 'granted', handled_by: { name: 'Boss' } });
  });
});

describe('POST /api/admin/inbox/license-request/{id}/decline', () => {
  it('mails the reason, closes the request and the user may ask again, which opens a new item', async () => {
    const request = await pendingRequest();
    const response = await fixture.admin.request('POST', `/api/admin/inbox/license-request/${request.id}/decline`, {
      reason: 'We only offer trials to companies.',
    });
    expect(response.status).toBe(200);
    const answer = await json<{ message: string; item: InboxItemAnswer; mail_sent: boolean; user: { id: number; license_request: number } }>(response);
    expect(answer).toMatchObject({
      message: 'License request declined; the user was e-mailed.',
      mail_sent: true,
      // For the users table on the same screen.
      user: { id: fixture.user.user.id, license_request: 0 },
      item: { outcome: 'declined', decline_reason: 'We only offer trials to companies.', handled_by: { name: 'Boss' } },
    });

    const mail = latestMailTo(fixture.ctx.config.outboxDir, 'ann@example.test');
    expect(mail?.subject).toBe('Dimensional Control: Your license request was declined');
    expect(mail?.text).toContain('We only offer trials to companies.');
    expect(mail?.replyTo).toContain('boss@example.test');
    // The dashboard no longer shows it as awaiting approval.
    expect((await userSession()).user.license_request).toBe(0);
    expect((await listInbox(fixture.admin)).items).toEqual([]);
    expect((await fixture.admin.request('POST', `/api/admin/inbox/license-request/${request.id}/decline`, { reason: 'again' })).status).toBe(409);

    await requestLicense(fixture.user);
    const open = (await listInbox(fixture.admin)).items;
    expect(open).toHaveLength(1);
    expect(open[0]?.id).not.toBe(request.id);
  });

  it('refuses an empty or overlong reason with 422, changing and mailing nothing', async () => {
    const request = await pendingRequest();
    const mails = readOutbox(fixture.ctx.config.outboxDir).length;
    for (const reason of ['', '   ', 'x'.repeat(2001)]) {
      const response = await fixture.admin.request('POST', `/api/admin/inbox/license-request/${request.id}/decline`, { reason });
      expect(response.status).toBe(422);
    }
    expect(readOutbox(fixture.ctx.config.outboxDir)).toHaveLength(mails);
    expect((await userSession()).user.license_request).toBe(1);
    expect((await listInbox(fixture.admin)).items[0]?.handled_at).toBeNull();
  });

  it('non-admins are refused', async () => {
    const request = await pendingRequest();
    expect((await fixture.user.request('POST', `/api/admin/inbox/license-request/${request.id}/decline`, { reason: 'no' })).status).toBe(403);
    expect((await fixture.user.request('POST', `/api/admin/inbox/license-request/${request.id}/grant`, { days: 30 })).status).toBe(403);
    expect(fixture.ctx.db.select().from(licenses).all()).toHaveLength(0);
  });
});

describe('requests made before the inbox', () => {
  it('are put into it once at start, and an existing open item is not doubled', () => {
    const { db } = fixture.ctx;
    setLicenseRequest(db, fixture.user.user.id, true, '2025-12-01T00:00:00.000Z');
    expect(backfillLicenseRequests(db)).toBe(1);
    expect(backfillLicenseRequests(db)).toBe(0);
    expect(db.select().from(licenseRequests).all()).toEqual([
      expect.objectContaining({ user_id: fixture.user.user.id, created_at: '2025-12-01T00:00:00.000Z' }),
    ]);
    insertLicenseRequest(db, fixture.admin.user.id, '2026-01-01T00:00:00.000Z');
    expect(backfillLicenseRequests(db)).toBe(0);
  });
});
