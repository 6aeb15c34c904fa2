// A user's support history (issue 28, section 1): their own contact messages (sent before signing up too, from the same
// verified address) and license requests with the admins' replies; their answer lands in the same inbox item, open and
// unread again, and is mailed to the admins. Nobody reaches another user's items.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUser, login } from '../../../helpers/auth.ts';
import { readOutbox } from '../../../helpers/mail.ts';
import { createAdminFixture, json, type AdminFixture } from '../../admin/admin-fixture.ts';
import { listInbox, requestLicense, sendContactMessage, type InboxItemAnswer } from '../inbox/inbox-fixture.ts';

let fixture: AdminFixture;
beforeEach(async () => {
  fixture = await createAdminFixture({ fakeClock: true });
});
afterEach(() => fixture.ctx.cleanup());

interface SupportItem {
  kind: 'contact' | 'license-request';
  id: number;
  message: string | null;
  status: string;
  decline_reason: string | null;
  conversation: Array<{ from: 'you' | 'support'; subject: string; message: string }>;
}

const support = async (client = fixture.user) => (await json<{ items: SupportItem[] }>(await client.request('GET', '/api/user/support'))).items;

describe('GET /api/user/support', () => {
  it("lists the user's own messages (also those sent before signing up, any case of the address) and requests, with replies and state", async () => {
    await sendContactMessage(fixture.ctx.app, { name: 'Ann before signing up', email: 'ANN@example.test', message: 'Do you sell site licenses?' });
    await sendContactMessage(fixture.ctx.app, { name: 'Someone else', email: 'other@example.test', message: 'Not Ann' });
    fixture.ctx.advance(60_000);
    await requestLicense(fixture.user);
    const inbox = (await listInbox(fixture.admin)).items;
    const annMessage = inbox.find((item) => item.message === 'Do you sell site licenses?');
    await fixture.admin.request('POST', `/api/admin/inbox/contact/${annMessage?.id}/reply`, { subject: 'Re: site licenses', message: 'Yes, from 5 seats.' });

    const items = await support();
    expect(items.map((item) => [item.kind, item.status])).toEqual([
      ['license-request', 'open'],
      ['contact', 'answered'],
    ]);
    expect(items[1]).toMatchObject({
      message: 'Do you sell site licenses?',
      conversation: [{ from: 'support', subject: 'Re: site licenses', message: 'Yes, from 5 seats.' }],
    });
    // No admin bookkeeping reaches the user.
    expect(Object.keys(items[1] ?? {}).sort()).toEqual(['conversation', 'created_at', 'decline_reason', 'id', 'kind', 'message', 'status']);
  });

  it('shows no contact messages while the address is not verified', async () => {
    await createUser(fixture.ctx, { email: 'new@example.test', name: 'New', verified: false });
    await sendContactMessage(fixture.ctx.app, { name: 'New', email: 'new@example.test', message: 'Hi' });
    const unverified = await login(fixture.ctx.app, 'new@example.test');
    expect(await support(unverified)).toEqual([]);
  });

  it('says a declined request was declined, with the reason', async () => {
    await requestLicense(fixture.user);
    const [request] = (await listInbox(fixture.admin)).items;
    await fixture.admin.request('POST', `/api/admin/inbox/license-request/${request?.id}/decline`, { reason: 'Students only.' });
    expect((await support())[0]).toMatchObject({ status: 'declined', decline_reason: 'Students only.' });
  });
});

describe('POST /api/user/support/{kind}/{id}/reply', () => {
  it('adds the answer to the same inbox item, unread and open again, and mails the admins', async () => {
    await sendContactMessage(fixture.ctx.app, { name: 'Ann', email: 'ann@example.test', message: 'Training dates?' });
    const [item] = (await listInbox(fixture.admin)).items;
    await fixture.admin.request('POST', `/api/admin/inbox/contact/${item?.id}/reply`, { subject: 'Re: Training dates?', message: 'Which city?' });
    await fixture.admin.request('POST', `/api/admin/inbox/contact/${item?.id}/handled`);
    const mailsBefore = readOutbox(fixture.ctx.config.outboxDir).length;

    const response = await fixture.user.request('POST', `/api/user/support/contact/${item?.id}/reply`, { message: ' Berlin, please. ' });
    expect(response.status).toBe(200);
    const answer = await json<{ message: string; item: SupportItem }>(response);
    expect(answer.message).toBe('Your answer was sent.');
    expect(answer.item.status).toBe('open');
    expect(answer.item.conversation.map((entry) => [entry.from, entry.message])).toEqual([
      ['support', 'Which city?'],
      ['you', 'Berlin, please.'],
    ]);

    const inbox = await listInbox(fixture.admin);
    const admins: InboxItemAnswer | undefined = inbox.items.find((candidate) => candidate.id === item?.id);
    expect(admins).toMatchObject({ read_at: null, handled_at: null });
    expect(admins?.replies.at(-1)).toMatchObject({ author: 'user', message: 'Berlin, please.', sent_by: { id: fixture.user.user.id } });
    expect(inbox.unread).toBe(1);
    const mails = readOutbox(fixture.ctx.config.outboxDir).slice(mailsBefore);
    expect(mails.map((mail) => mail.to)).toEqual([expect.stringContaining('boss@example.test')]);
    expect(mails[0]?.subject).toBe('Dimensional Control: Answer from Ann');
    expect(mails[0]?.text).toContain('Berlin, please.');
    expect(mails[0]?.replyTo).toContain('ann@example.test');
  });

  it("answers 404 for another user's item, an unknown one, or a message of an address not verified; 422 for an empty answer", async () => {
    await createUser(fixture.ctx, { email: 'eve@example.test', name: 'Eve' });
    const eve = await login(fixture.ctx.app, 'eve@example.test');
    await sendContactMessage(fixture.ctx.app, { name: 'Ann', email: 'ann@example.test', message: 'Mine' });
    await requestLicense(fixture.user);
    const items = (await listInbox(fixture.admin)).items;
    for (const item of items) {
      const response = await eve.request('POST', `/api/user/support/${item.kind}/${item.id}/reply`, { message: 'Hijack' });
      expect(response.status, item.kind).toBe(404);
    }
    expect(await support(eve)).toEqual([]);
    expect((await fixture.user.request('POST', '/api/user/support/contact/999/reply', { message: 'x' })).status).toBe(404);
    const contact = items.find((item) => item.kind === 'contact');
    const empty = await fixture.user.request('POST', `/api/user/support/contact/${contact?.id}/reply`, { message: '  ' });
    expect(empty.status).toBe(422);
    expect((await listInbox(fixture.admin)).items.every((item) => item.replies.length === 0)).toBe(true);
  });

  it('is rate limited per user', async () => {
    await requestLicense(fixture.user);
    const [request] = (await listInbox(fixture.admin)).items;
    const statuses: number[] = [];
    for (let index = 0; index < 11; index += 1) {
      statuses.push((await fixture.user.request('POST', `/api/user/support/license-request/${request?.id}/reply`, { message: `Note ${index}` })).status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('is refused to anonymous visitors', async () => {
    const response = await fixture.ctx.app.request('/api/user/support', { headers: { Accept: 'application/json' } });
    expect(response.status).toBe(401);
  });
});
