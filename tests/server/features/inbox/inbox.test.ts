// The admin inbox API (docs/admin-api.md#inbox): one list of contact messages and license requests, newest first; read,
// handled and reopen shared by all admins; search; replies mailed to the visitor and recorded; the unread count on GET /api/user.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUser, login } from '../../../helpers/auth.ts';
import { latestMailTo, readOutbox } from '../../../helpers/mail.ts';
import { createAdminFixture, json, type AdminFixture } from '../../admin/admin-fixture.ts';
import { listInbox, requestLicense, sendContactMessage, type InboxItemAnswer } from './inbox-fixture.ts';

let fixture: AdminFixture;
beforeEach(async () => {
  fixture = await createAdminFixture({ fakeClock: true });
});
afterEach(() => fixture.ctx.cleanup());

type ItemAnswer = { message: string; item: InboxItemAnswer; unread: number };

/** A contact message, then (a minute later) Ann's license request, then (another minute) a second message. */
async function fillInbox() {
  const { ctx, user } = fixture;
  await sendContactMessage(ctx.app, { name: 'Vera Visitor', email: 'vera@example.test', message: 'Do you offer on-site training?' });
  ctx.advance(60_000);
  await requestLicense(user);
  ctx.advance(60_000);
  await sendContactMessage(ctx.app, { name: 'Walt', email: 'walt@example.test', message: 'Invoice 100% wrong' });
}

describe('GET /api/admin/inbox', () => {
  it('lists both kinds newest first with the unread count, and GET /api/user carries the count for admins only', async () => {
    await fillInbox();
    const inbox = await listInbox(fixture.admin);
    expect(inbox.items.map((item) => [item.kind, item.name, item.email])).toEqual([
      ['contact', 'Walt', 'walt@example.test'],
      ['license-request', 'Ann', 'ann@example.test'],
      ['contact', 'Vera Visitor', 'vera@example.test'],
    ]);
    expect(inbox.items[1]).toMatchObject({ user_id: fixture.user.user.id, message: null, read_at: null, handled_at: null, outcome: null });
    expect(inbox).toMatchObject({ total: 3, page: 1, page_count: 1, unread: 3 });

    const adminSession = await json<{ inbox_unread: number | null }>(await fixture.admin.request('GET', '/api/user'));
    expect(adminSession.inbox_unread).toBe(3);
    const userSession = await json<{ inbox_unread: number | null }>(await fixture.user.request('GET', '/api/user'));
    expect(userSession.inbox_unread).toBeNull();
    expect((await json<{ unread: number }>(await fixture.admin.request('GET', '/api/admin/inbox/unread-count'))).unread).toBe(3);
  });

  it('searches name, e-mail and message (wildcards are literal) within a status', async () => {
    await fillInbox();
    const names = async (query: string) => (await listInbox(fixture.admin, query)).items.map((item) => item.name);
    expect(await names('?q=TRAINING')).toEqual(['Vera Visitor']);
    expect(await names('?q=ann%40example')).toEqual(['Ann']);
    expect(await names('?q=100%25')).toEqual(['Walt']);
    expect(await names('?q=%25')).toEqual(['Walt']);
    expect(await names('?q=nothing-like-this')).toEqual([]);
    expect(await names('?status=handled&q=walt')).toEqual([]);
  });

  it('pages by 20 and refuses a bad status or page with 422', async () => {
    for (let index = 0; index < 4; index += 1) await sendContactMessage(fixture.ctx.app, { name: `V${index}`, email: 'v@example.test', message: 'm' });
    expect((await listInbox(fixture.admin, '?page=2')).items).toEqual([]);
    const refused = await fixture.admin.request('GET', '/api/admin/inbox?status=closed&page=0');
    expect(refused.status).toBe(422);
    expect((await json<{ errors: Record<string, string[]> }>(refused)).errors).toMatchObject({
      status: ['The status must be open, handled or all.'],
      page: ['The page must be at least 1.'],
    });
  });
});

describe('read, handled, reopen', () => {
  it('opening marks read once; handled leaves the open list and shows who; reopen brings it back', async () => {
    await fillInbox();
    const vera = (await listInbox(fixture.admin)).items.find((item) => item.name === 'Vera Visitor');
    if (!vera) throw new Error('no message from Vera');

    const read = await json<ItemAnswer>(await fixture.admin.request('POST', `/api/admin/inbox/contact/${vera.id}/read`));
    expect(read.item.read_at).toBe(new Date(fixture.ctx.now()).toISOString());
    expect(read.unread).toBe(2);
    fixture.ctx.advance(1000);
    const again = await json<ItemAnswer>(await fixture.admin.request('POST', `/api/admin/inbox/contact/${vera.id}/read`));
    expect(again.item.read_at).toBe(read.item.read_at);

    const handled = await json<ItemAnswer>(await fixture.admin.request('POST', `/api/admin/inbox/contact/${vera.id}/handled`));
    expect(handled).toMatchObject({ message: 'Marked as handled.', item: { handled_by: { name: 'Boss' } } });
    expect((await listInbox(fixture.admin)).items.map((item) => item.name)).toEqual(['Walt', 'Ann']);
    expect((await listInbox(fixture.admin, '?status=handled')).items.map((item) => item.name)).toEqual(['Vera Visitor']);
    expect((await listInbox(fixture.admin, '?status=all')).total).toBe(3);

    // Handling an unread item reads it too.
    const request = (await listInbox(fixture.admin)).items.find((item) => item.kind === 'license-request');
    const handledRequest = await json<ItemAnswer>(await fixture.admin.request('POST', `/api/admin/inbox/license-request/${request?.id}/handled`));
    expect(handledRequest.item.read_at).not.toBeNull();
    expect(handledRequest.unread).toBe(1);

    const reopened = await json<ItemAnswer>(await fixture.admin.request('POST', `/api/admin/inbox/contact/${vera.id}/reopen`));
    expect(reopened.item).toMatchObject({ handled_at: null, handled_by: null });
    expect((await listInbox(fixture.admin)).items.map((item) => item.name)).toEqual(['Walt', 'Vera Visitor']);
  });

  it('answers 404 for an unknown or malformed id and an unknown kind', async () => {
    for (const path of ['/api/admin/inbox/contact/999/read', '/api/admin/inbox/contact/abc/handled', '/api/admin/inbox/license-request/1/reopen']) {
      const response = await fixture.admin.request('POST', path);
      expect(response.status, path).toBe(404);
    }
    expect((await fixture.admin.request('POST', '/api/admin/inbox/contact/999/reply', { subject: 'S', message: 'M' })).status).toBe(404);
    expect((await fixture.admin.request('POST', '/api/admin/inbox/mailing/1/read')).status).toBe(404);
  });
});

describe('POST /api/admin/inbox/{kind}/{id}/reply', () => {
  it('mails the visitor through the site mail, with the message quoted, and records who sent what and when', async () => {
    await sendContactMessage(fixture.ctx.app, { name: 'Vera Visitor', email: 'vera@example.test', message: 'Do you offer on-site training?' });
    const [vera] = (await listInbox(fixture.admin)).items;
    const response = await fixture.admin.request('POST', `/api/admin/inbox/contact/${vera?.id}/reply`, {
      subject: ' Re: on-site training ',
      message: 'Yes, we do.\nWhich week suits you?',
    });
    expect(response.status).toBe(200);
    const answer = await json<ItemAnswer>(response);
    expect(answer.message).toBe('Reply sent.');
    expect(answer.item.replies).toEqual([
      {
        id: expect.any(Number),
        subject: 'Re: on-site training',
        message: 'Yes, we do.\nWhich week suits you?',
        created_at: new Date(fixture.ctx.now()).toISOString(),
        sent_by: { id: fixture.admin.user.id, name: 'Boss' },
        author: 'admin',
      },
    ]);
    expect(answer.item.read_at).not.toBeNull();

    const mail = latestMailTo(fixture.ctx.config.outboxDir, 'vera@example.test');
    // The admin's own subject and words, no greeting of ours above them (issue 28, item 4).
    expect(mail?.subject).toBe('Re: on-site training');
    expect(mail?.replyTo).toContain('boss@example.test');
    expect(mail?.text).not.toContain('Hello');
    expect(mail?.text?.indexOf('Yes, we do.')).toBeLessThan(mail?.text?.indexOf('> Do you offer') ?? 0);
    expect(mail?.text).toContain('Which week suits you?');
    expect(mail?.text).toContain('> Do you offer on-site training?');
    // The list shows the reply too.
    expect((await listInbox(fixture.admin)).items[0]?.replies).toHaveLength(1);
  });

  it('replies to a license request go to the user', async () => {
    await requestLicense(fixture.user);
    const [request] = (await listInbox(fixture.admin)).items;
    const response = await fixture.admin.request('POST', `/api/admin/inbox/license-request/${request?.id}/reply`, {
      subject: 'Your request',
      message: 'Which product?',
    });
    expect(response.status).toBe(200);
    expect(latestMailTo(fixture.ctx.config.outboxDir, 'ann@example.test')?.subject).toBe('Your request');
  });

  it("offers 'Re: ' and the visitor's first words as the subject (issue 28, item 4)", async () => {
    await sendContactMessage(fixture.ctx.app, {
      name: 'Bob',
      email: 'bob@example.test',
      message: 'Hello,\nhow do I   move my license to a new laptop next week?',
    });
    await sendContactMessage(fixture.ctx.app, { name: 'Cy', email: 'cy@example.test', message: 'Price list?' });
    await requestLicense(fixture.user);
    const subjects = (await listInbox(fixture.admin)).items.map((item) => item.reply_subject);
    expect(subjects.sort()).toEqual(['Re: Hello, how do I move my license to…', 'Re: License request', 'Re: Price list?']);
  });

  it('refuses an empty subject or message with 422, sending and recording nothing', async () => {
    await sendContactMessage(fixture.ctx.app, { name: 'Vera', email: 'vera@example.test', message: 'Hi' });
    const [vera] = (await listInbox(fixture.admin)).items;
    const before = readOutbox(fixture.ctx.config.outboxDir).length;
    const response = await fixture.admin.request('POST', `/api/admin/inbox/contact/${vera?.id}/reply`, { subject: '  ', message: '' });
    expect(response.status).toBe(422);
    expect((await json<{ errors: Record<string, string[]> }>(response)).errors).toEqual({
      subject: ['The subject field is required.'],
      message: ['The message field is required.'],
    });
    expect(readOutbox(fixture.ctx.config.outboxDir)).toHaveLength(before);
    expect((await listInbox(fixture.admin)).items[0]?.replies).toEqual([]);
  });
});

describe('who may use the inbox', () => {
  it('answers 401 to anonymous visitors and 403 to users, and changes nothing', async () => {
    await sendContactMessage(fixture.ctx.app, { name: 'Vera', email: 'vera@example.test', message: 'Hi' });
    const [vera] = (await listInbox(fixture.admin)).items;
    await createUser(fixture.ctx, { email: 'other@example.test' });
    const other = await login(fixture.ctx.app, 'other@example.test');
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/inbox'],
      ['GET', '/api/admin/inbox/unread-count'],
      ['POST', `/api/admin/inbox/contact/${vera?.id}/read`],
      ['POST', `/api/admin/inbox/contact/${vera?.id}/handled`],
      ['POST', `/api/admin/inbox/contact/${vera?.id}/reply`, { subject: 'S', message: 'M' }],
    ];
    for (const [method, path, body] of calls) expect((await other.request(method, path, body)).status, path).toBe(403);
    const anonymous = fixture.ctx.app;
    for (const [method, path] of calls) {
      const response = await anonymous.request(path, { method, headers: { Accept: 'application/json' } });
      expect([401, 419], path).toContain(response.status);
    }
    expect((await listInbox(fixture.admin)).items[0]).toMatchObject({ read_at: null, handled_at: null, replies: [] });
  });
});
