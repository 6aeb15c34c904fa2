// Mailings: queueing with validation, the background worker through a real SMTP server that is down for
// a while (every user still gets exactly one message), the claim surviving a restart, and the signed
// unsubscribe link.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { claimDueRecipients } from '../../../../server/features/mailings/queries.ts';
import { insertUser, markUnsubscribed } from '../../../../server/db/queries/users.ts';
import { mailingRecipients, users } from '../../../../server/db/schema.ts';
import {
  classifySendError,
  MAILING_IN_FLIGHT,
  MAILING_LEASE_MS,
  retryDelay,
  startMailingWorker,
  type MailingWorker,
} from '../../../../server/features/mailings/job.ts';
import { renderMailing } from '../../../../server/features/mailings/message.ts';
import { renderMailingHtml, renderPlainText } from '../../../../common/markdown/index.ts';
import { createFlakySmtp, type FlakySmtp } from '../../../helpers/flaky-smtp.ts';
import { linksIn, parseMail, readOutbox } from '../../../helpers/mail.ts';
import { createAdminFixture, json, type AdminFixture } from '../../admin/admin-fixture.ts';

type Summary = {
  id: number;
  counts: { pending: number; sent: number; failed: number; skipped: number; total: number };
  recent_failures: Array<Record<string, unknown>>;
};

let fixture: AdminFixture;
let worker: MailingWorker | null = null;
let smtp: FlakySmtp | null = null;
afterEach(async () => {
  await worker?.stop();
  worker = null;
  await smtp?.stop();
  smtp = null;
  fixture.ctx.cleanup();
});

/** Users straight into the database (no password hashing: these never log in). */
function addUsers(count: number, prefix: string, extra: Partial<typeof users.$inferInsert> = {}): number[] {
  return Array.from(
    { length: count },
    (_unused, index) =>
      insertUser(fixture.ctx.db, {
        name: `${prefix} ${index}`,
        email: `${prefix}${index}@example.test`,
        password_hash: 'x',
        email_verified_at: '2025-01-01T00:00:00.000Z',
        ...extra,
      }).id,
  );
}

const rows = () => fixture.ctx.db.select().from(mailingRecipients).all();

describe('POST /api/admin/sendmailing', () => {
  beforeEach(async () => {
    fixture = await createAdminFixture();
  });

  it('queues one row per recipient in one go, skipping duplicates, unsubscribed and banned users', async () => {
    const ids = addUsers(3, 'reader');
    const [unsubscribed] = addUsers(1, 'gone', { unsubscribed_at: '2025-06-01T00:00:00.000Z' });
    const [banned] = addUsers(1, 'banned', { is_banned: 1 });
    const response = await fixture.admin.request('POST', '/api/admin/sendmailing', {
      users: [...ids, ids[0], unsubscribed, banned],
      title: 'News',
      body: '**Hello**',
    });
    expect(response.status).toBe(202);
    const body = await json<{ message: string; mailing: Summary; skipped: object }>(response);
    expect(body.message).toBe('Mailing queued for 3 recipients.');
    expect(body.mailing.counts).toEqual({ pending: 3, sent: 0, failed: 0, skipped: 0, total: 3 });
    expect(body.skipped).toEqual({ unsubscribed: 1, banned: 1 });
    expect(
      rows()
        .map((row) => row.user_id)
        .sort((a, b) => a - b),
    ).toEqual(ids);
    // The primary's worker is told once the rows are committed, instead of finding them at its next tick.
    expect(fixture.ctx.woken).toEqual(['mailing']);
  });

  it('accepts the ids as a JSON string, and "all-verified" for every verified, mailable user', async () => {
    const ids = addUsers(2, 'reader');
    addUsers(1, 'unverified', { email_verified_at: null });
    addUsers(1, 'gone', { unsubscribed_at: '2025-06-01T00:00:00.000Z' });
    const asString = await fixture.admin.request('POST', '/api/admin/sendmailing', { users: JSON.stringify(ids.map(String)), title: 'T', body: 'B' });
    expect((await json<{ message: string }>(asString)).message).toBe('Mailing queued for 2 recipients.');
    const all = await json<{ message: string }>(
      await fixture.admin.request('POST', '/api/admin/sendmailing', { users: 'all-verified', title: 'T', body: 'B' }),
    );
    // boss, ann and the two readers are verified; the unverified and the unsubscribed are not mailed.
    expect(all.message).toBe('Mailing queued for 4 recipients.');
  });

  it('answers 422 per field (title, body, users) and queues nothing', async () => {
    const [gone] = addUsers(1, 'gone', { unsubscribed_at: '2025-06-01T00:00:00.000Z' });
    const cases: Array<[unknown, Record<string, string[]>]> = [
      [{}, { users: ['The users field is required.'], title: ['The title field is required.'], body: ['The body field is required.'] }],
      [{ users: [], title: 'T', body: 'B' }, { users: ['Choose at least one recipient.'] }],
      [{ users: [1, 'x'], title: 'T', body: 'B' }, { users: ['The users field must be a list of user ids, or "all-verified".'] }],
      [{ users: [1, 999_999], title: ' ', body: 'B' }, { title: ['The title field is required.'] }],
      [{ users: [1, 999_999, 999_998], title: 'T', body: 'B' }, { users: ['Unknown user ids: 999999, 999998.'] }],
      [{ users: [gone], title: 'T', body: 'B' }, { users: ['None of the chosen users can receive mailings: they are unsubscribed or banned.'] }],
    ];
    for (const [payload, errors] of cases) {
      const response = await fixture.admin.request('POST', '/api/admin/sendmailing', payload);
      expect(response.status, JSON.stringify(payload)).toBe(422);
      expect((await json<{ errors: object }>(response)).errors).toEqual(errors);
    }
    expect(rows()).toEqual([]);
    expect(await json(await fixture.admin.request('GET', '/api/admin/mailings'))).toEqual({ mailings: [] });
    expect(fixture.ctx.woken).toEqual([]);
  });
});

describe('the mailing worker', () => {
  it('delivers a mailing to 50 users through an outage: every user gets exactly one message', async () => {
    smtp = await createFlakySmtp();
    fixture = await createAdminFixture({ fakeClock: true, env: { SMTP_URL: smtp.url } });
    const { ctx, admin } = fixture;
    const ids = addUsers(50, 'reader');
    const queued = await admin.request('POST', '/api/admin/sendmailing', {
      users: ids,
      title: 'Release 9 is out',
      body: 'Read the **notes** at [the news](/news/releases).',
    });
    expect((await json<{ message: string }>(queued)).message).toBe('Mailing queued for 50 recipients.');
    worker = startMailingWorker(ctx, { intervalMs: 0 });

    // 1. The server is down: connections are refused. Nothing is lost or counted as an attempt.
    await smtp.stop();
    expect(await worker.runOnce()).toMatchObject({ sent: 0, outage: true });
    expect(rows().every((row) => row.status === 'pending' && row.attempts === 0)).toBe(true);
    expect(rows().filter((row) => row.last_error?.startsWith('Mail server unavailable'))).toHaveLength(1);
    // The worker backs off: right away, it does not even try.
    expect(await worker.runOnce()).toMatchObject({ sent: 0, outage: false });

    // 2. The server is up but refuses sessions with 421.
    await smtp.start();
    smtp.mode = 'refuse-session';
    ctx.advance(retryDelay(1));
    expect(await worker.runOnce()).toMatchObject({ sent: 0, outage: true });
    expect(smtp.connections).toBe(1);

    // 3. It recovers, but greylists two recipients once (451 at RCPT TO): they are retried with backoff.
    smtp.mode = 'accept';
    smtp.greylistOnce.add('reader7@example.test').add('reader42@example.test');
    for (let round = 0; round < 10 && rows().some((row) => row.status === 'pending'); round += 1) {
      ctx.advance(retryDelay(8));
      await worker.runOnce();
    }

    const received = smtp.messages.flatMap((message) => message.to);
    expect(received).toHaveLength(50);
    expect(new Set(received)).toEqual(new Set(ids.map((_id, index) => `reader${index}@example.test`)));
    expect(rows().every((row) => row.status === 'sent' && row.sent_at !== null && row.last_error === null)).toBe(true);
    expect(rows().find((row) => row.email === 'reader7@example.test')?.attempts).toBe(1);

    const { mailings } = await json<{ mailings: Summary[] }>(await admin.request('GET', '/api/admin/mailings'));
    expect(mailings[0]?.counts).toEqual({ pending: 0, sent: 50, failed: 0, skipped: 0, total: 50 });
    expect(mailings[0]?.recent_failures).toEqual([]);

    // The message: the title as subject, markdown rendered with site links made absolute, an unsubscribe link.
    const mail = parseMail(smtp.messages[0]?.raw ?? '');
    expect(mail.subject).toBe('Release 9 is out');
    expect(mail.html).toContain('<strong>notes</strong>');
    expect(mail.html).toContain('href="http://localhost:4321/news/releases"');
    expect(mail.text).toContain('Read the notes at the news (http://localhost:4321/news/releases).');
    expect(mail.headers.get('list-unsubscribe')).toMatch(/^<http:\/\/localhost:4321\/api\/mailing\/unsubscribe\?/);
    expect(linksIn(mail.text).some((link) => link.includes('/api/mailing/unsubscribe?'))).toBe(true);
  });

  it('shows failures to the admin and gives up on a recipient the server refuses for good', async () => {
    fixture = await createAdminFixture({ fakeClock: true });
    const { ctx, admin } = fixture;
    const [id] = addUsers(1, 'reader');
    const { mailing } = await json<{ mailing: Summary }>(await admin.request('POST', '/api/admin/sendmailing', { users: [id], title: 'T', body: 'B' }));
    let calls = 0;
    // The error nodemailer gives for a mailbox the server says does not exist (measured against smtp-server).
    const refusing = {
      ...ctx,
      mailer: {
        mode: 'smtp' as const,
        close: () => {},
        admitAccountMail: () => true,
        send: async () => {
          calls += 1;
          throw Object.assign(new Error('No such user'), { code: 'EENVELOPE', command: 'RCPT TO', responseCode: 550, response: '550 No such user' });
        },
      },
    };
    worker = startMailingWorker(refusing, { intervalMs: 0 });
    expect(await worker.runOnce()).toMatchObject({ failed: 1 });
    // Far beyond any backoff (but within the admin's session): a refused mailbox is not tried again.
    ctx.advance(60 * 60 * 1000);
    await worker.runOnce();
    expect(calls).toBe(1);
    const detailResponse = await admin.request('GET', `/api/admin/mailings/${mailing.id}`);
    expect(detailResponse.status).toBe(200);
    const detail = await json<{ mailing: Summary & { body: string }; recipients: Array<Record<string, unknown>> }>(detailResponse);
    expect(detail.mailing).toMatchObject({ body: 'B', counts: { failed: 1, sent: 0 } });
    expect(detail.recipients).toEqual([
      expect.objectContaining({ user_id: id, status: 'failed', attempts: 1, last_error: 'EENVELOPE: 550 No such user', next_attempt_at: null, sent_at: null }),
    ]);
    const list = await json<{ mailings: Summary[] }>(await admin.request('GET', '/api/admin/mailings'));
    expect(list.mailings[0]?.recent_failures).toEqual([expect.objectContaining({ user_id: id, status: 'failed', last_error: 'EENVELOPE: 550 No such user' })]);
    expect((await admin.request('GET', `/api/admin/mailings/${mailing.id}?status=sent`)).status).toBe(200);
    expect((await admin.request('GET', `/api/admin/mailings/${mailing.id}?status=bogus`)).status).toBe(422);
    expect((await admin.request('GET', '/api/admin/mailings/99999')).status).toBe(404);
  });

  it('sends at once when woken, a mailing queued during a run included, and not once stopped', async () => {
    fixture = await createAdminFixture({ fakeClock: true });
    const { ctx, admin } = fixture;
    addUsers(2, 'reader');
    await admin.request('POST', '/api/admin/sendmailing', { users: 'all-verified', title: 'First', body: 'B' });
    const firstCount = rows().length;
    const sent: string[] = [];
    let releaseFirst: () => void = () => {};
    const send = (message: { to: string; subject: string }) =>
      new Promise<void>((resolve) => {
        sent.push(`${message.subject} ${message.to}`);
        // The first message of the run waits until the test lets it go.
        if (sent.length === 1) releaseFirst = resolve;
        else resolve();
      });
    // No timer at all: only a wake sends anything.
    worker = startMailingWorker({ ...ctx, mailer: { ...ctx.mailer, send } }, { intervalMs: 0 });
    worker.wake();
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    // Queued and woken while that run is sending (server/process/periodic-job.ts makes sure one run looks after it).
    addUsers(2, 'later');
    await admin.request('POST', '/api/admin/sendmailing', { users: 'all-verified', title: 'Second', body: 'B' });
    const total = rows().length;
    worker.wake();
    releaseFirst();
    await vi.waitFor(() => expect(rows().filter((row) => row.status === 'sent')).toHaveLength(total));
    expect(sent.filter((line) => line.startsWith('First'))).toHaveLength(firstCount);
    expect(new Set(sent).size).toBe(total);

    // A stopped worker is not woken.
    await worker.stop();
    addUsers(1, 'after-stop');
    await admin.request('POST', '/api/admin/sendmailing', { users: 'all-verified', title: 'Third', body: 'B' });
    worker.wake();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(sent.filter((line) => line.startsWith('Third'))).toEqual([]);
    worker = null;
  });

  it('keeps its claim in the database: a worker that died holding rows leaves them to the next one after the lease', async () => {
    fixture = await createAdminFixture({ fakeClock: true });
    const { ctx, admin } = fixture;
    addUsers(3, 'reader');
    await admin.request('POST', '/api/admin/sendmailing', { users: 'all-verified', title: 'T', body: 'B' });
    // A worker claimed everything and then the process died before sending.
    expect(claimDueRecipients(ctx.db, { now: ctx.now(), limit: 100, leaseUntil: ctx.now() + MAILING_LEASE_MS })).toHaveLength(5);
    worker = startMailingWorker(ctx, { intervalMs: 0 });
    expect(await worker.runOnce()).toMatchObject({ sent: 0 });
    expect(readOutbox(ctx.config.outboxDir)).toHaveLength(0);
    ctx.advance(MAILING_LEASE_MS);
    expect(await worker.runOnce()).toMatchObject({ sent: 5 });
    // Sent rows are never claimed again.
    ctx.advance(MAILING_LEASE_MS * 10);
    expect(await worker.runOnce()).toMatchObject({ sent: 0 });
    expect(readOutbox(ctx.config.outboxDir)).toHaveLength(5);
  });

  it('skips a user who unsubscribed after the mailing was queued', async () => {
    fixture = await createAdminFixture();
    const { ctx, admin } = fixture;
    const [keep, leave] = addUsers(2, 'reader');
    await admin.request('POST', '/api/admin/sendmailing', { users: [keep, leave], title: 'T', body: 'B' });
    markUnsubscribed(ctx.db, leave as number, new Date().toISOString());
    worker = startMailingWorker(ctx, { intervalMs: 0 });
    expect(await worker.runOnce()).toMatchObject({ sent: 1, skipped: 1 });
    expect(readOutbox(ctx.config.outboxDir).map((mail) => mail.to)).toEqual(['reader0@example.test']);
    expect(rows().find((row) => row.user_id === leave)).toMatchObject({ status: 'skipped', last_error: 'Unsubscribed before the mailing was sent.' });
  });
});

describe('the mailing worker at a server stop (docs/decisions/0033-graceful-stop.md)', () => {
  it('hands the untried rows back at once, finishes and marks the message in flight, and sends nobody twice', async () => {
    fixture = await createAdminFixture({ fakeClock: true });
    const { ctx, admin } = fixture;
    addUsers(4, 'reader');
    await admin.request('POST', '/api/admin/sendmailing', { users: 'all-verified', title: 'T', body: 'B' });
    const sent: string[] = [];
    let finishSend: (() => void) | null = null;
    const slow = {
      ...ctx,
      mailer: {
        ...ctx.mailer,
        // The first message waits for the test: the stop lands while it is in flight.
        send: (message: { to: string }) =>
          new Promise<void>((resolve) => {
            finishSend = () => {
              sent.push(message.to);
              resolve();
            };
          }),
      },
    };
    worker = startMailingWorker(slow, { intervalMs: 0 });
    const run = worker.runOnce();
    // The readers, the admin and the fixture's user: all in one batch.
    const total = rows().length;
    expect(total).toBe(6);
    await vi.waitFor(() => expect(rows().filter((row) => row.next_attempt_at! > ctx.now())).toHaveLength(total));
    // Handed to the mail server (rendering the first message may load the markdown pipeline first).
    await vi.waitFor(() => expect(finishSend).not.toBeNull());
    const stopped = worker.stop();
    // Before the message in flight is done, the others are due again (not leased for 15 minutes).
    expect(rows().filter((row) => row.status === 'pending' && row.next_attempt_at! <= ctx.now())).toHaveLength(total - 1);
    finishSend!();
    await stopped;
    await run;
    expect(sent).toHaveLength(1);
    expect(
      rows()
        .filter((row) => row.status === 'sent')
        .map((row) => row.email),
    ).toEqual(sent);

    // The next start sends the rest at once, and nobody twice.
    worker = startMailingWorker(ctx, { intervalMs: 0 });
    expect(await worker.runOnce()).toMatchObject({ sent: total - 1 });
    const outbox = readOutbox(ctx.config.outboxDir).map((mail) => mail.to);
    expect(new Set([...sent, ...outbox]).size).toBe(total);
    expect(sent.length + outbox.length).toBe(total);
  });

  it('makes the message the stop deadline cut due again at once (at least once, never lost)', async () => {
    fixture = await createAdminFixture({ fakeClock: true });
    const { ctx, admin } = fixture;
    addUsers(1, 'reader');
    await admin.request('POST', '/api/admin/sendmailing', { users: 'all-verified', title: 'T', body: 'B' });
    let attempts = 0;
    const stuck = {
      ...ctx,
      mailer: {
        ...ctx.mailer,
        send: () => {
          attempts += 1;
          return new Promise<void>(() => {});
        },
      },
    };
    const stopping = startMailingWorker(stuck, { intervalMs: 0 });
    void stopping.runOnce();
    await vi.waitFor(() => expect(attempts).toBe(1));
    void stopping.stop();
    stopping.abandon();
    // Nothing was sent: every row, the cut one included, is due now for the next start.
    const cut = rows();
    expect(cut.every((row) => row.status === 'pending' && row.next_attempt_at! <= ctx.now())).toBe(true);
    expect(cut.filter((row) => row.last_error === 'Interrupted by a server stop (will be sent again).')).toHaveLength(1);

    worker = startMailingWorker(ctx, { intervalMs: 0 });
    expect(await worker.runOnce()).toMatchObject({ sent: cut.length });
  });
});

describe('the mailing worker with messages in flight side by side (docs/decisions/0061-mailing-two-in-flight.md)', () => {
  /**
   * A mailer recording how many sends were in flight at once. `holds(n)` says whether the n-th send (from 0)
   * waits for the test to `finish` it; the others finish by themselves after 1 or 6 ms in turn (out of order).
   */
  function recordingMailer(holds: (index: number) => boolean = () => false) {
    const sent: string[] = [];
    const held: Array<{ to: string; finish: (error?: Error) => void }> = [];
    let started = 0;
    let inFlight = 0;
    let mostInFlight = 0;
    const send = (message: { to: string }) =>
      new Promise<void>((resolve, reject) => {
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        const finish = (error?: Error) => {
          inFlight -= 1;
          if (error) return reject(error);
          sent.push(message.to);
          resolve();
        };
        const index = started++;
        if (holds(index)) held.push({ to: message.to, finish });
        else setTimeout(finish, index % 2 === 0 ? 1 : 6);
      });
    return { send, sent, held, inFlight: () => inFlight, mostInFlight: () => mostInFlight };
  }
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ECONNECTION', command: 'CONN' });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

  it('sends the first message of a run alone, then one per pooled connection across batches, each user exactly once', async () => {
    expect(MAILING_IN_FLIGHT).toBe(2);
    fixture = await createAdminFixture({ fakeClock: true });
    const { ctx, admin } = fixture;
    addUsers(23, 'reader');
    await admin.request('POST', '/api/admin/sendmailing', { users: 'all-verified', title: 'T', body: 'B' });
    const total = rows().length;
    const mail = recordingMailer((index) => index === 0);
    worker = startMailingWorker({ ...ctx, mailer: { ...ctx.mailer, send: mail.send } }, { intervalMs: 0 });
    const run = worker.runOnce();
    await vi.waitFor(() => expect(mail.held).toHaveLength(1));
    // Nothing else goes out until the server has accepted the first message.
    await settle();
    expect(mail.inFlight()).toBe(1);
    mail.held[0]?.finish();
    expect(await run).toMatchObject({ sent: total, outage: false });
    expect(mail.mostInFlight()).toBe(MAILING_IN_FLIGHT);
    expect(mail.sent).toHaveLength(total);
    expect(new Set(mail.sent).size).toBe(total);
    expect(rows().every((row) => row.status === 'sent' && row.sent_at !== null)).toBe(true);

    // A worker told to send one at a time never has two in flight.
    const single = recordingMailer();
    addUsers(5, 'later');
    await admin.request('POST', '/api/admin/sendmailing', { users: 'all-verified', title: 'T2', body: 'B2' });
    const one = startMailingWorker({ ...ctx, mailer: { ...ctx.mailer, send: single.send } }, { intervalMs: 0, inFlight: 1 });
    expect(await one.runOnce()).toMatchObject({ sent: total + 5 });
    expect(single.mostInFlight()).toBe(1);
  });

  it('does not hold the next batch back for the slowest message of the last one (docs/decisions/0075-mailing-lanes-across-batches.md)', async () => {
    fixture = await createAdminFixture({ fakeClock: true });
    const { ctx, admin } = fixture;
    addUsers(11, 'reader');
    await admin.request('POST', '/api/admin/sendmailing', { users: 'all-verified', title: 'T', body: 'B' });
    const total = rows().length;
    // Batches of three: the first message goes alone, then the two lanes take the second and the third, and
    // the third (the last of the first batch) stays in flight until the test finishes it.
    const mail = recordingMailer((index) => index === 2);
    worker = startMailingWorker({ ...ctx, mailer: { ...ctx.mailer, send: mail.send } }, { intervalMs: 0, batchSize: 3 });
    const run = worker.runOnce();
    // The other lane goes on through every later batch meanwhile.
    await vi.waitFor(() => expect(mail.sent).toHaveLength(total - 1));
    expect(mail.held).toHaveLength(1);
    expect(rows().filter((row) => row.status === 'pending')).toHaveLength(1);
    mail.held[0]?.finish();
    expect(await run).toMatchObject({ sent: total, outage: false });
    expect(new Set(mail.sent).size).toBe(total);
    expect(rows().every((row) => row.status === 'sent')).toBe(true);
  });

  it('at a stop hands back the untried rows at once, finishes and marks both messages in flight, and sends nobody twice', async () => {
    fixture = await createAdminFixture({ fakeClock: true });
    const { ctx, admin } = fixture;
    addUsers(8, 'reader');
    await admin.request('POST', '/api/admin/sendmailing', { users: 'all-verified', title: 'T', body: 'B' });
    const total = rows().length;
    // The first goes through; the next two are held in flight when the stop lands.
    const mail = recordingMailer((index) => index > 0);
    worker = startMailingWorker({ ...ctx, mailer: { ...ctx.mailer, send: mail.send } }, { intervalMs: 0 });
    const run = worker.runOnce();
    await vi.waitFor(() => expect(mail.held).toHaveLength(2));
    const stopping = worker.stop();
    worker = null;
    expect(mail.held).toHaveLength(2);
    const sentBefore = mail.sent.length;
    // The untried rows are due again now, before the two in flight are done.
    const due = rows().filter((row) => row.status === 'pending' && row.next_attempt_at! <= ctx.now());
    expect(due).toHaveLength(total - sentBefore - 2);
    for (const send of mail.held) send.finish();
    await stopping;
    await run;
    expect(rows().filter((row) => row.status === 'sent')).toHaveLength(sentBefore + 2);
    expect(mail.inFlight()).toBe(0);

    // The next start sends the rest at once, and nobody twice.
    const rest = recordingMailer();
    worker = startMailingWorker({ ...ctx, mailer: { ...ctx.mailer, send: rest.send } }, { intervalMs: 0 });
    expect(await worker.runOnce()).toMatchObject({ sent: total - sentBefore - 2 });
    expect(new Set([...mail.sent, ...rest.sent]).size).toBe(total);
    expect(mail.sent.length + rest.sent.length).toBe(total);
  });

  it('makes both messages the stop deadline cut due again at once (at least once, never lost)', async () => {
    fixture = await createAdminFixture({ fakeClock: true });
    const { ctx, admin } = fixture;
    addUsers(4, 'reader');
    await admin.request('POST', '/api/admin/sendmailing', { users: 'all-verified', title: 'T', body: 'B' });
    const mail = recordingMailer((index) => index > 0);
    const cut = startMailingWorker({ ...ctx, mailer: { ...ctx.mailer, send: mail.send } }, { intervalMs: 0 });
    void cut.runOnce();
    await vi.waitFor(() => expect(mail.held).toHaveLength(2));
    void cut.stop();
    cut.abandon();
    const interrupted = rows().filter((row) => row.last_error === 'Interrupted by a server stop (will be sent again).');
    expect(interrupted.map((row) => row.email).sort()).toEqual(mail.held.map((send) => send.to).sort());
    expect(
      rows()
        .filter((row) => row.status === 'pending')
        .every((row) => row.next_attempt_at! <= ctx.now()),
    ).toBe(true);

    worker = startMailingWorker(ctx, { intervalMs: 0 });
    expect(await worker.runOnce()).toMatchObject({ sent: rows().length - 1 });
  });

  it('loses the server with two in flight: both tried rows carry the error, one step of backoff, the rest untried and kept', async () => {
    fixture = await createAdminFixture({ fakeClock: true });
    const { ctx, admin } = fixture;
    addUsers(8, 'reader');
    await admin.request('POST', '/api/admin/sendmailing', { users: 'all-verified', title: 'T', body: 'B' });
    const total = rows().length;
    // The first goes through and widens the run; the next two are in flight when the server goes away, and
    // the first of the next run is held to show it goes alone.
    const mail = recordingMailer((index) => index >= 1 && index <= 3);
    worker = startMailingWorker({ ...ctx, mailer: { ...ctx.mailer, send: mail.send } }, { intervalMs: 0 });
    const run = worker.runOnce();
    await vi.waitFor(() => expect(mail.held).toHaveLength(2));
    for (const send of mail.held) send.finish(refused());
    expect(await run).toMatchObject({ sent: 1, outage: true, retried: 0, failed: 0 });
    const pending = rows().filter((row) => row.status === 'pending');
    expect(pending).toHaveLength(total - 1);
    // No attempt counted; everything waits out the first step of backoff (5 s), not the 15-minute lease.
    expect(pending.every((row) => row.attempts === 0 && row.next_attempt_at === ctx.now() + retryDelay(1))).toBe(true);
    expect(
      pending
        .filter((row) => row.last_error?.startsWith('Mail server unavailable'))
        .map((row) => row.email)
        .sort(),
    ).toEqual(mail.held.map((send) => send.to).sort());
    expect(mail.inFlight()).toBe(0);

    // Back after the backoff: the rest goes out, the first message of the run alone again.
    ctx.advance(retryDelay(1));
    const resumed = worker.runOnce();
    await vi.waitFor(() => expect(mail.held).toHaveLength(3));
    await settle();
    expect(mail.inFlight()).toBe(1);
    mail.held[2]?.finish();
    expect(await resumed).toMatchObject({ sent: total - 1, outage: false });
    expect(rows().every((row) => row.status === 'sent' && row.last_error === null)).toBe(true);
    expect(new Set(mail.sent).size).toBe(total);
  });
});

describe('the message of a mailing', () => {
  it('has a readable text part and no image from another site (tracking pixels), in what is sent and what the admin previews', async () => {
    fixture = await createAdminFixture();
    const { ctx, admin } = fixture;
    const [id] = addUsers(1, 'reader');
    const body = [
      '# Hello! :tada:',
      '',
      'Read the **release notes** on [the news](/news/releases).',
      '',
      '- first',
      '- second',
      '',
      'Area: $\\pi r^2$',
      '',
      '![Our logo](/media/logo.png) ![pixel](https://tracker.example/open.gif?u=1) <img src="//tracker.example/p.gif" width="1" height="1">',
    ].join('\n');
    await admin.request('POST', '/api/admin/sendmailing', { users: [id], title: 'News', body });
    worker = startMailingWorker(ctx, { intervalMs: 0 });
    await worker.runOnce();
    const [mail] = readOutbox(ctx.config.outboxDir);
    expect(mail?.text).toContain(
      [
        'News',
        '',
        'Hello! 🎉',
        '',
        'Read the release notes on the news (http://localhost:4321/news/releases).',
        '',
        '- first',
        '- second',
        '',
        'Area: $\\pi r^2$',
      ].join('\n'),
    );
    expect(mail?.text).not.toMatch(/[#*]|:tada:|tracker/);
    expect(mail?.html).toContain('<img src="http://localhost:4321/media/logo.png" alt="Our logo"');
    expect(mail?.html).not.toContain('tracker.example');
    // The admin's preview renders with the same function (src/islands/admin-console/MarkdownPreview.tsx).
    expect(renderMailingHtml(body, 'http://localhost:4321')).toBe(
      renderMailing({ renderMailingHtml, renderPlainText }, 'http://localhost:4321', { title: 'News', body }).htmlBody,
    );
  });
});

describe('classifySendError', () => {
  it('tells outages, permanent refusals and retryable failures apart', () => {
    expect(classifySendError({ code: 'ESOCKET', command: 'CONN' })).toBe('unreachable');
    expect(classifySendError({ code: 'EPROTOCOL', command: 'CONN', responseCode: 421 })).toBe('unreachable');
    expect(classifySendError({ code: 'ETIMEDOUT' })).toBe('unreachable');
    expect(classifySendError({ code: 'EENVELOPE', command: 'RCPT TO', responseCode: 550 })).toBe('rejected');
    expect(classifySendError({ code: 'EENVELOPE', command: 'RCPT TO', responseCode: 451 })).toBe('retry');
    expect(classifySendError({ code: 'EMESSAGE', command: 'DATA', responseCode: 552 })).toBe('retry');
    expect(classifySendError(new Error('bug'))).toBe('retry');
  });

  it('backs off exponentially from 5 s, capped at 15 minutes', () => {
    expect([1, 2, 3, 4, 8, 20].map(retryDelay)).toEqual([5_000, 10_000, 20_000, 40_000, 640_000, 900_000]);
  });
});

describe('/api/mailing/unsubscribe', () => {
  it('GET only asks; POST (the one-click body, no cookie, no XSRF header) unsubscribes the signed user, once and for all', async () => {
    fixture = await createAdminFixture();
    const { ctx, admin } = fixture;
    const [id, other] = addUsers(2, 'reader');
    await admin.request('POST', '/api/admin/sendmailing', { users: [id], title: 'T', body: 'B' });
    worker = startMailingWorker(ctx, { intervalMs: 0 });
    await worker.runOnce();
    const [mail] = readOutbox(ctx.config.outboxDir);
    const link = linksIn(mail?.text).find((candidate) => candidate.includes('/api/mailing/unsubscribe'));
    if (!link) throw new Error('no unsubscribe link');
    // RFC 8058: the header names the same link, and says it takes the one-click POST.
    expect(mail?.headers.get('list-unsubscribe')).toBe(`<${link}>`);
    expect(mail?.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const url = new URL(link);
    const pathAndQuery = (target: URL) => `${target.pathname}${target.search}`;
    // What a mail provider sends: a bare POST with the form body, no cookie, no Origin, no XSRF header.
    const oneClick = (target: URL) =>
      ctx.app.request(pathAndQuery(target), {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
    const stored = (userId: number | undefined) =>
      ctx.db
        .select()
        .from(users)
        .where(eq(users.id, userId ?? 0))
        .get();

    const tampered = new URL(url);
    tampered.searchParams.set('user', String(other));
    const unsigned = new URL(url);
    unsigned.searchParams.delete('signature');
    for (const bad of [tampered, unsigned]) {
      for (const response of [await ctx.app.request(pathAndQuery(bad)), await oneClick(bad)]) {
        expect(response.status).toBe(403);
        expect(await response.text()).toContain('This unsubscribe link is invalid');
      }
    }
    expect(stored(other)?.unsubscribed_at).toBeNull();

    // GET (a person, or a link scanner) sees a confirmation form posting back to the same signed link.
    const page = await ctx.app.request(pathAndQuery(url));
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('Do you want to stop receiving our mailings?');
    expect(html).toContain(`<form method="post" action="${pathAndQuery(url).replace(/&/g, '&amp;')}">`);
    expect(stored(id)?.unsubscribed_at).toBeNull();

    const response = await oneClick(url);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('You have been unsubscribed.');
    const first = stored(id)?.unsubscribed_at;
    expect(first).toMatch(/^\d{4}-/);
    expect((await oneClick(url)).status).toBe(200);
    expect(stored(id)?.unsubscribed_at).toBe(first);

    // The admin sees it, and the next mailing leaves the user out.
    const all = await json<{ users: Array<{ id: number; unsubscribed_at: string | null }> }>(await admin.request('GET', '/api/license/getAll'));
    expect(all.users.find((user) => user.id === id)?.unsubscribed_at).toBe(first);
    expect((await admin.request('POST', '/api/admin/sendmailing', { users: [id], title: 'T', body: 'B' })).status).toBe(422);
  });

  it('is the only route the XSRF check lets through without a token, and the Origin check still applies to it', async () => {
    fixture = await createAdminFixture();
    const { ctx } = fixture;
    for (const path of ['/api/mailing/unsubscribe/', '/api/mailing/unsubscribe-all', '/api/mailing/other', '/api/contact']) {
      expect((await ctx.app.request(path, { method: 'POST', body: 'List-Unsubscribe=One-Click' })).status).toBe(419);
    }
    const foreign = await ctx.app.request('/api/mailing/unsubscribe?user=1', { method: 'POST', headers: { Origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
  });
});
