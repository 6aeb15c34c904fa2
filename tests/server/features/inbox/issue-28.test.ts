// Inbox defects of issue 28: a reopened granted request stays granted (item 3), a search that found nothing under Open says
// how many handled items match (item 13), and who is answering an item (item 23, "assign to me").
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUser, login } from '../../../helpers/auth.ts';
import { createAdminFixture, json, type AdminFixture } from '../../admin/admin-fixture.ts';
import { listInbox, requestLicense, sendContactMessage, type InboxItemAnswer } from './inbox-fixture.ts';

let fixture: AdminFixture;
beforeEach(async () => {
  fixture = await createAdminFixture({ fakeClock: true });
});
afterEach(() => fixture.ctx.cleanup());

type ItemAnswer = { message: string; item: InboxItemAnswer; unread: number };

async function grantedRequest(): Promise<InboxItemAnswer> {
  await requestLicense(fixture.user);
  const request = (await listInbox(fixture.admin)).items[0];
  const granted = await fixture.admin.request('POST', `/api/admin/inbox/license-request/${request?.id}/grant`, { days: 30 });
  expect(granted.status).toBe(200);
  return (await json<ItemAnswer>(granted)).item;
}

describe('Reopen on a granted license request (issue 28, item 3)', () => {
  it('keeps who granted it and when; the item is open again but still recognisably granted', async () => {
    const granted = await grantedRequest();
    expect(granted).toMatchObject({ outcome: 'granted', decided_by: { name: 'Boss' } });
    fixture.ctx.advance(60_000);
    const reopened = await json<ItemAnswer>(await fixture.admin.request('POST', `/api/admin/inbox/license-request/${granted.id}/reopen`));
    expect(reopened.item).toMatchObject({
      handled_at: null,
      handled_by: null,
      outcome: 'granted',
      decided_at: granted.decided_at,
      decided_by: { id: fixture.admin.user.id, name: 'Boss' },
    });
  });

  it('a later request of the same user is answered on its own: the reopened granted one keeps its outcome', async () => {
    const granted = await grantedRequest();
    await fixture.admin.request('POST', `/api/admin/inbox/license-request/${granted.id}/reopen`);
    // The license ends, the user asks again, and that request is declined.
    fixture.ctx.db.$client.prepare('update licenses set active = 0').run();
    fixture.ctx.db.$client.prepare('update users set license_granted = 0, license_request = 0').run();
    await requestLicense(fixture.user);
    const newer = (await listInbox(fixture.admin)).items.find((item) => item.id !== granted.id);
    const declined = await fixture.admin.request('POST', `/api/admin/inbox/license-request/${newer?.id}/decline`, { reason: 'One trial each.' });
    expect(declined.status).toBe(200);
    const items = (await listInbox(fixture.admin, '?status=all')).items;
    expect(items.find((item) => item.id === granted.id)).toMatchObject({ outcome: 'granted', decline_reason: null });
    expect(items.find((item) => item.id === newer?.id)).toMatchObject({ outcome: 'declined' });
  });
});

describe('a search with no match under the chosen status (issue 28, item 13)', () => {
  it('counts the matches under the other status', async () => {
    await sendContactMessage(fixture.ctx.app, { name: 'Vera', email: 'vera@example.test', message: 'Training dates?' });
    const [vera] = (await listInbox(fixture.admin)).items;
    await fixture.admin.request('POST', `/api/admin/inbox/contact/${vera?.id}/handled`);
    expect(await listInbox(fixture.admin, '?status=open&q=training')).toMatchObject({ total: 0, matches_elsewhere: 1 });
    expect(await listInbox(fixture.admin, '?status=handled&q=training')).toMatchObject({ total: 1, matches_elsewhere: 0 });
    expect(await listInbox(fixture.admin, '?status=open&q=nothing')).toMatchObject({ total: 0, matches_elsewhere: 0 });
    expect(await listInbox(fixture.admin, '?status=all&q=nothing')).toMatchObject({ total: 0, matches_elsewhere: 0 });
  });
});

describe('assign to me (issue 28, item 23)', () => {
  it('records who answers an item, shown to the other admins, until unassigned', async () => {
    await createUser(fixture.ctx, { email: 'second@example.test', name: 'Second', role: 'admin' });
    const second = await login(fixture.ctx.app, 'second@example.test');
    await sendContactMessage(fixture.ctx.app, { name: 'Vera', email: 'vera@example.test', message: 'Hi' });
    const [vera] = (await listInbox(fixture.admin)).items;
    expect(vera?.assigned_to).toBeNull();

    const assigned = await fixture.admin.request('POST', `/api/admin/inbox/contact/${vera?.id}/assign`);
    expect(assigned.status).toBe(200);
    expect(await json<ItemAnswer>(assigned)).toMatchObject({ message: 'Assigned to you.', item: { assigned_to: { name: 'Boss' } } });
    expect((await listInbox(second)).items[0]?.assigned_to).toEqual({ id: fixture.admin.user.id, name: 'Boss' });

    // The other admin takes it over.
    await second.request('POST', `/api/admin/inbox/contact/${vera?.id}/assign`);
    expect((await listInbox(fixture.admin)).items[0]?.assigned_to?.name).toBe('Second');
    const unassigned = await json<ItemAnswer>(await second.request('POST', `/api/admin/inbox/contact/${vera?.id}/unassign`));
    expect(unassigned).toMatchObject({ message: 'No longer assigned.', item: { assigned_to: null } });
  });

  it('is for admins only, and 404 for an item that does not exist', async () => {
    await sendContactMessage(fixture.ctx.app, { name: 'Vera', email: 'vera@example.test', message: 'Hi' });
    const [vera] = (await listInbox(fixture.admin)).items;
    expect((await fixture.user.request('POST', `/api/admin/inbox/contact/${vera?.id}/assign`)).status).toBe(403);
    expect((await fixture.admin.request('POST', '/api/admin/inbox/contact/999/assign')).status).toBe(404);
    expect((await listInbox(fixture.admin)).items[0]?.assigned_to).toBeNull();
  });
});
