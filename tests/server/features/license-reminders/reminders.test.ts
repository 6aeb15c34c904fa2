// Trial expiry reminders on a fake clock (docs/licensing-reminders.md): each reminder once, only the most
// relevant one after downtime, nothing twice across a restart, an SMTP outage delays but loses nothing,
// a send in flight finishes at stop, and no log line ever names a key.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { insertLicense, updateLicense } from '../../../../server/features/licensing/queries.ts';
import { insertUser } from '../../../../server/db/queries/users.ts';
import { licenseEvents, licenseReminders, licenses, licenseTypes, users } from '../../../../server/db/schema.ts';
import { ensureLicenseTypes } from '../../../../server/features/license-types/index.ts';
import { REMINDER_RETRY, decideReminder, startReminderScheduler, type ReminderScheduler } from '../../../../server/features/license-reminders/job.ts';
import type { LicenseReminder } from '../../../../server/features/license-reminders/queries.ts';
import { createLogger, type Logger } from '../../../../server/log.ts';
import { createMailer, type Mailer, type MailMessage } from '../../../../server/mail/transport.ts';
import { createFlakySmtp, type FlakySmtp } from '../../../helpers/flaky-smtp.ts';
import { linksIn, parseMail, readOutbox, type ParsedMail } from '../../../helpers/mail.ts';
import { expectNoLicenseKeyIn } from '../../../helpers/license-keys-in-logs.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let ctx: TestContext;
let mailer: Mailer;
let smtp: FlakySmtp | null = null;
const schedulers: ReminderScheduler[] = [];

/** Every line of the scheduler's and the mailer's loggers goes to the test context's capture (ctx.logLines). */
function capturingLogger(): Logger {
  return createLogger('silent', (line) => ctx.logLines.push(line));
}

function setUp(options: { smtpUrl?: string } = {}): void {
  ctx = createTestContext({ fakeClock: true, env: options.smtpUrl ? { SMTP_URL: options.smtpUrl } : {} });
  ensureLicenseTypes(ctx.db);
  mailer = createMailer({ config: ctx.config, log: capturingLogger(), db: ctx.db, now: ctx.now });
}

function scheduler(withMailer: Mailer = mailer): ReminderScheduler {
  const started = startReminderScheduler(
    { config: ctx.config, db: ctx.db, log: capturingLogger(), mailer: withMailer, now: ctx.now, wake: ctx.wake },
    { intervalMs: 0 },
  );
  schedulers.push(started);
  return started;
}

function typeId(name: string): number {
  return ctx.db.select().from(licenseTypes).where(eq(licenseTypes.name, name)).get()!.id;
}

let userCount = 0;
/** A user with a trial granted now (or `ago` ms before now) for `days` days. */
function grantTrial(options: { days: number; ago?: number; type?: string; active?: 0 | 1; suspended?: 0 | 1; email?: string }) {
  userCount += 1;
  const user = insertUser(ctx.db, {
    name: `Trial ${userCount}`,
    email: options.email ?? `trial${userCount}@example.test`,
    password_hash: 'x',
    email_verified_at: '2025-01-01T00:00:00.000Z',
  });
  const activatedAt = ctx.now() - (options.ago ?? 0);
  const license = insertLicense(ctx.db, {
    license_type_id: typeId(options.type ?? 'trial'),
    user_id: user.id,
    active: options.active ?? 1,
    suspended: options.suspended ?? 0,
    expire: options.days,
    activated_at: new Date(activatedAt).toISOString(),
    expire_date: new Date(activatedAt + options.days * DAY).toISOString(),
  });
  return { user, license, key: license.key!, expireDate: license.expire_date! };
}

const outbox = (): ParsedMail[] => readOutbox(ctx.config.outboxDir);
const reminderRows = () => ctx.db.select().from(licenseReminders).all();
const licenseHistory = (licenseId: number) => ctx.db.select().from(licenseEvents).where(eq(licenseEvents.license_id, licenseId)).all();
const reminderEvents = (licenseId: number) => licenseHistory(licenseId).filter((event) => event.action === 'reminder_sent');

describe('trial expiry reminders', () => {
  afterEach(async () => {
    try {
      for (const scheduler of schedulers.splice(0)) await scheduler.stop();
      mailer.close();
      await smtp?.stop();
      smtp = null;
      // Every test: the keys went out by mail, and not one log line carries one.
      expectNoLicenseKeyIn(ctx.logLines, ctx.db);
    } finally {
      ctx.cleanup();
    }
  });

  it('mails 7 days and 1 day before expiry and at expiry, each once, with the key, expiry and downloads link', async () => {
    setUp();
    const { license, key, user } = grantTrial({ days: 30 });
    const run = scheduler();

    // Minute by minute around each threshold: nothing early, one mail on time, nothing again after.
    await run.runOnce();
    ctx.advance(23 * DAY - MINUTE);
    await run.runOnce();
    expect(outbox()).toHaveLength(0);
    ctx.advance(MINUTE);
    expect((await run.runOnce()).sent).toBe(1);
    ctx.advance(MINUTE);
    await run.runOnce();
    expect(outbox()).toHaveLength(1);

    ctx.advance(6 * DAY - 2 * MINUTE);
    await run.runOnce();
    expect(outbox()).toHaveLength(1);
    ctx.advance(MINUTE);
    await run.runOnce();
    await run.runOnce();
    expect(outbox()).toHaveLength(2);

    ctx.advance(DAY - MINUTE);
    await run.runOnce();
    expect(outbox()).toHaveLength(2);
    ctx.advance(MINUTE);
    await run.runOnce();
    ctx.advance(10 * DAY);
    await run.runOnce();

    const mails = outbox();
    expect(mails.map((mail) => mail.subject)).toEqual(
      ['Your trial license expires in 7 days', 'Your trial license expires within a day', 'Your trial license has expired'].map(
        (subject) => `${ctx.config.siteName}: ${subject}`,
      ),
    );
    for (const mail of mails) {
      expect(mail.to).toContain(user.email);
      expect(mail.partTypes).toEqual(['text/plain', 'text/html']);
      expect(mail.text).toContain(key);
      expect(mail.html).toContain(key);
      expect(mail.text).toContain(`${license.expire_date!.slice(0, 10)} ${license.expire_date!.slice(11, 16)} UTC`);
      expect(linksIn(mail.text)).toContain(`${ctx.config.siteUrl}/downloads`);
      expect(mail.html).toContain(`href="${ctx.config.siteUrl}/downloads"`);
      expect(mail.subject).not.toContain(key);
    }
    expect(reminderRows().map((row) => [row.kind, row.sent_at !== null, row.attempts])).toEqual([
      ['expires_in_7_days', true, 1],
      ['expires_in_1_day', true, 1],
      ['expired', true, 1],
    ]);
    const events = reminderEvents(license.id);
    expect(events.map((event) => [event.action, event.actor_kind, JSON.parse(event.detail).kind])).toEqual([
      ['reminder_sent', 'system', 'expires_in_7_days'],
      ['reminder_sent', 'system', 'expires_in_1_day'],
      ['reminder_sent', 'system', 'expired'],
    ]);
    for (const event of events) expect(event.detail).not.toContain(key);
    // The run that mailed the last reminder also recorded the expiry itself, once (docs/integrations.md#events).
    expect(licenseHistory(license.id).filter((event) => event.action === 'expired')).toHaveLength(1);
    // The capture sees both the scheduler's and the mailer's lines (checked for keys after each test).
    expect(ctx.logLines.some((line) => line.includes('license reminders: 1 sent'))).toBe(true);
    expect(ctx.logLines.some((line) => line.includes(`to ${user.email} written to`))).toBe(true);
  });

  it('catches up after downtime with only the most relevant reminder, saying how long is really left', async () => {
    setUp();
    // First seen: already expired, 12 hours left, 3 days left, and 20 days left.
    const expired = grantTrial({ days: 30, ago: 32 * DAY });
    const lastDay = grantTrial({ days: 30, ago: 29.5 * DAY });
    const threeDays = grantTrial({ days: 30, ago: 27 * DAY });
    const later = grantTrial({ days: 30, ago: 10 * DAY });
    // Long expired (before the window): nobody is told about a trial that ended months ago.
    grantTrial({ days: 30, ago: 120 * DAY });

    const summary = await scheduler().runOnce();
    expect(summary).toEqual({ sent: 3, retried: 0, failed: 0, outage: false });
    const sent = new Map(reminderRows().map((row) => [row.license_id, row.kind]));
    expect(sent).toEqual(
      new Map([
        [expired.license.id, 'expired'],
        [lastDay.license.id, 'expires_in_1_day'],
        [threeDays.license.id, 'expires_in_7_days'],
      ]),
    );
    expect(sent.has(later.license.id)).toBe(false);
    const toThreeDays = outbox().find((mail) => mail.to.includes(threeDays.user.email));
    expect(toThreeDays?.subject).toContain('expires in 3 days');
  });

  it('sends nothing twice after a restart: a second scheduler on the same database only adds what is newly due', async () => {
    setUp();
    const { license } = grantTrial({ days: 10, ago: 3 * DAY });
    const first = scheduler();
    expect((await first.runOnce()).sent).toBe(1);
    await first.stop();

    const second = scheduler();
    expect((await second.runOnce()).sent).toBe(0);
    ctx.advance(6 * DAY);
    expect((await second.runOnce()).sent).toBe(1);
    await second.stop();

    // The server was down across the expiry; a third start sends the expired mail alone, then nothing.
    ctx.advance(3 * DAY);
    const third = scheduler();
    expect((await third.runOnce()).sent).toBe(1);
    expect((await scheduler().runOnce()).sent).toBe(0);
    expect(outbox()).toHaveLength(3);
    expect(reminderEvents(license.id)).toHaveLength(3);
  });

  it('two schedulers running at once still send each reminder once', async () => {
    setUp();
    for (let index = 0; index < 5; index += 1) grantTrial({ days: 30, ago: 25 * DAY });
    const results = await Promise.all([scheduler().runOnce(), scheduler().runOnce()]);
    expect(results[0].sent + results[1].sent).toBe(5);
    expect(outbox()).toHaveLength(5);
  });

  it('leaves out perpetual, inactive and suspended licenses and banned users', async () => {
    setUp();
    grantTrial({ days: 30, ago: 28 * DAY, type: 'perpetual' });
    grantTrial({ days: 30, ago: 28 * DAY, active: 0 });
    grantTrial({ days: 30, ago: 28 * DAY, suspended: 1 });
    const banned = grantTrial({ days: 30, ago: 28 * DAY });
    ctx.db.update(users).set({ is_banned: 1 }).where(eq(users.id, banned.user.id)).run();
    expect((await scheduler().runOnce()).sent).toBe(0);
    expect(outbox()).toHaveLength(0);
  });

  it('starts over when an admin extends a trial past a reminder already sent', async () => {
    setUp();
    const { license } = grantTrial({ days: 30, ago: 31 * DAY });
    const run = scheduler();
    await run.runOnce();
    expect(reminderRows().map((row) => row.kind)).toEqual(['expired']);
    // Extended by 30 days: 29 days left.
    updateLicense(ctx.db, license.id, { expire: 60, expire_date: new Date(Date.parse(license.activated_at!) + 60 * DAY).toISOString() });
    await run.runOnce();
    expect(outbox()).toHaveLength(1);
    ctx.advance(22 * DAY);
    await run.runOnce();
    expect(outbox().map((mail) => mail.subject.replace(/^.*: /, ''))).toEqual(['Your trial license has expired', 'Your trial license expires in 7 days']);
    await run.runOnce();
    expect(outbox()).toHaveLength(2);
    expect(ctx.db.select().from(licenses).where(eq(licenses.id, license.id)).get()?.expire).toBe(60);
  });

  it('waits out an SMTP outage without counting it, and retries a refused message later, sending once', async () => {
    smtp = await createFlakySmtp();
    setUp({ smtpUrl: smtp.url });
    const outage = grantTrial({ days: 30, ago: 24 * DAY });
    const run = scheduler();

    await smtp.stop();
    const down = await run.runOnce();
    expect(down).toMatchObject({ sent: 0, outage: true });
    expect(reminderRows()).toEqual([expect.objectContaining({ license_id: outage.license.id, sent_at: null, attempts: 0 })]);
    // Paused: the next minute's run does not even try.
    ctx.advance(MINUTE);
    expect(await run.runOnce()).toMatchObject({ sent: 0, outage: false });

    // Back up, and a restart in between: the row is due again after the retry delay and goes out once.
    await smtp.start();
    const restarted = scheduler();
    ctx.advance(REMINDER_RETRY.baseMs);
    expect((await restarted.runOnce()).sent).toBe(1);
    expect((await restarted.runOnce()).sent).toBe(0);
    expect(smtp.messages).toHaveLength(1);
    expect(parseMail(smtp.messages[0]!.raw).text).toContain(outage.key);

    // 451 at RCPT TO: an attempt that counts, retried after its delay, never twice once accepted.
    const greylisted = grantTrial({ days: 30, ago: 29.5 * DAY, email: 'grey@example.test' });
    smtp.greylistOnce.add('grey@example.test');
    expect(await restarted.runOnce()).toMatchObject({ sent: 0, retried: 1 });
    ctx.advance(REMINDER_RETRY.delay(1) - MINUTE);
    expect((await restarted.runOnce()).sent).toBe(0);
    ctx.advance(MINUTE);
    expect((await restarted.runOnce()).sent).toBe(1);
    ctx.advance(REMINDER_RETRY.maxMs);
    expect((await restarted.runOnce()).sent).toBe(0);
    expect(smtp.messages.filter((message) => message.to.includes('grey@example.test'))).toHaveLength(1);
    expect(reminderRows().find((row) => row.license_id === greylisted.license.id)).toMatchObject({ kind: 'expires_in_1_day', attempts: 2 });
    expect(reminderEvents(greylisted.license.id)).toHaveLength(1);
  });

  it('lets a send in flight finish and be marked sent when stopped, claiming nothing after', async () => {
    setUp();
    grantTrial({ days: 30, ago: 25 * DAY });
    grantTrial({ days: 30, ago: 25 * DAY });
    let release: () => void = () => undefined;
    const started: MailMessage[] = [];
    const slow: Mailer = {
      mode: 'outbox',
      send: async (message) => {
        started.push(message);
        await new Promise<void>((resolve) => (release = resolve));
        await mailer.send(message);
      },
      close: () => undefined,
      admitAccountMail: () => true,
    };
    const run = scheduler(slow);
    const running = run.runOnce();
    await expect.poll(() => started.length).toBe(1);
    let stopped = false;
    const stopping = run.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect((await running).sent).toBe(1);
    expect(started).toHaveLength(1);
    expect(reminderRows()).toEqual([expect.objectContaining({ attempts: 1, sent_at: expect.any(String) })]);
    // The next start sends the other one.
    expect((await scheduler().runOnce()).sent).toBe(1);
  });
});

describe('decideReminder', () => {
  const row = (kind: LicenseReminder['kind'], fields: Partial<LicenseReminder> = {}): LicenseReminder => ({
    license_id: 1,
    kind,
    created_at: '2026-01-01T00:00:00.000Z',
    sent_at: null,
    attempts: 1,
    ...fields,
  });
  const at = Date.parse('2026-01-01T00:00:00.000Z');

  it('claims a new reminder, passes over a stale earlier one, and never a sent or given-up one', () => {
    expect(decideReminder('expires_in_7_days', [], at)).toEqual({ claim: 'insert', reset: false });
    expect(decideReminder('expired', [row('expires_in_7_days')], at)).toEqual({ claim: 'insert', reset: false });
    expect(decideReminder('expired', [row('expired', { sent_at: '2026-01-01T00:00:00.000Z' })], at + DAY)).toEqual({ claim: false, reset: false });
    expect(decideReminder('expired', [row('expired', { attempts: REMINDER_RETRY.maxAttempts })], at + DAY)).toEqual({ claim: false, reset: false });
  });

  it('retries an unsent claim only after its delay (so a claim in flight is not taken over)', () => {
    expect(decideReminder('expired', [row('expired')], at + REMINDER_RETRY.delay(1) - 1)).toEqual({ claim: false, reset: false });
    expect(decideReminder('expired', [row('expired')], at + REMINDER_RETRY.delay(1))).toMatchObject({ claim: 'retry' });
    expect(REMINDER_RETRY.delay(30)).toBe(REMINDER_RETRY.maxMs);
  });

  it('starts over when a later reminder is on record than the one due now', () => {
    expect(decideReminder('expires_in_7_days', [row('expires_in_7_days', { sent_at: 'x' }), row('expired', { sent_at: 'x' })], at)).toEqual({
      claim: 'insert',
      reset: true,
    });
  });
});
