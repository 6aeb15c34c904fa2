// The mail sender in both modes, through real parts: nodemailer renders the message, the outbox file or a
// real SMTP server (smtp-server) receives it, and the test reads it back as a mail client would.
import fs from 'node:fs';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../../server/env.ts';
import type { Logger } from '../../../server/log.ts';
import { openDatabase } from '../../../server/db/client.ts';
import { createMailer, describeMailDelivery, deliverSafely, sendSafely, type Mailer } from '../../../server/mail/transport.ts';
import { recipientKey } from '../../../server/mail/recipient-cap.ts';
import { contactAdminEmail, passwordResetEmail, verificationEmail } from '../../../server/mail/templates.ts';
import { linksIn, parseMail, readOutbox, startSmtpCapture, type SmtpCapture } from '../../helpers/mail.ts';
import { makeTempDir } from '../../helpers/test-context.ts';

interface RecordingLogger extends Logger {
  lines: Array<{ level: string; message: string; detail?: unknown }>;
}

function recordingLogger(): RecordingLogger {
  const lines: RecordingLogger['lines'] = [];
  const record = (level: string) => (message: string, detail?: unknown) => void lines.push({ level, message, detail });
  return { lines, error: record('error'), warn: record('warn'), info: record('info'), debug: record('debug') };
}

const FROM = 'Dimensional Control <no-reply@example.com>';
// Long, with "=" and "&": quoted-printable must wrap and escape it, and decoding must give it back intact.
const LINK = `http://localhost:4321/api/auth/email/verify/17?expires=1767229200&signature=${'a1b2c3d4'.repeat(8)}`;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setup(env: Record<string, string> = {}): { config: Config; log: RecordingLogger; mailer: Mailer; advance: (ms: number) => void } {
  const dataDir = makeTempDir('mail-test-');
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', SITE_URL: 'http://localhost:4321', MAIL_FROM: FROM, ...env });
  const log = recordingLogger();
  fs.mkdirSync(config.dataDir, { recursive: true });
  const db = openDatabase(config.databaseFile);
  cleanups.push(() => db.$client.close());
  let clock = Date.UTC(2026, 0, 1);
  const mailer = createMailer({ config, log, db, now: () => clock });
  cleanups.push(() => mailer.close());
  return { config, log, mailer, advance: (ms) => void (clock += ms) };
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('outbox mode (no SMTP_URL)', () => {
  it('writes a parseable .eml with From, To, Subject and both parts, and the link survives encoding', async () => {
    const { config, mailer } = setup();
    expect(mailer.mode).toBe('outbox');

    await mailer.send({ to: 'Jürgen Müller <jurgen@example.com>', ...passwordResetEmail(config, { name: 'Jürgen', link: LINK }) });

    const files = fs.readdirSync(config.outboxDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const [mail] = readOutbox(config.outboxDir);
    expect(mail).toBeDefined();
    expect(mail?.from).toBe(FROM);
    expect(mail?.to).toBe('Jürgen Müller <jurgen@example.com>');
    expect(mail?.subject).toBe('Dimensional Control: Reset your password');
    expect(mail?.headers.get('content-type')).toMatch(/^multipart\/alternative/);
    expect(mail?.partTypes).toEqual(['text/plain', 'text/html']);
    expect(mail?.text).toContain('Hello Jürgen,');
    expect(linksIn(mail?.text)).toContain(LINK);
    expect(mail?.html).toContain(`href="${LINK.replace(/&/g, '&amp;')}"`);
    // The decoding above was real work: on disk the link is quoted-printable, escaped and wrapped.
    const raw = fs.readFileSync(mail!.file!, 'utf8');
    expect(raw).toContain('Content-Transfer-Encoding: quoted-printable');
    expect(raw).not.toContain(LINK);
  });

  it('logs the links of the text part only with NODE_ENV=development, so a developer can follow them', async () => {
    const { config, log, mailer } = setup({ NODE_ENV: 'development' });
    await mailer.send({ to: 'user@example.com', ...verificationEmail(config, { link: LINK }) });

    const info = log.lines.filter((line) => line.level === 'info').map((line) => line.message);
    expect(info[0]).toContain(config.outboxDir);
    expect(info).toContain(`  link: ${LINK}`);
    expect(describeMailDelivery(config)).toBe(
      `Mail is not sent (no SMTP_URL): messages are written to ${config.outboxDir}; their links are logged (NODE_ENV=development).`,
    );
  });

  it('logs no working link otherwise: not in production, not in tests, not when NODE_ENV is unset (issue 17, item 9)', async () => {
    for (const env of [{ NODE_ENV: 'production' }, { NODE_ENV: 'test' }]) {
      const { config, log, mailer } = setup(env);
      await mailer.send({ to: 'user@example.com', ...passwordResetEmail(config, { name: 'Ann', link: LINK }) });
      const logged = log.lines.map((line) => line.message).join('\n');
      expect(logged).toContain(config.outboxDir);
      expect(logged).not.toContain('signature=');
      expect(describeMailDelivery(config)).toBe(
        `Mail is not sent (no SMTP_URL): messages are written to ${config.outboxDir}; their links are not logged (NODE_ENV=development logs them).`,
      );
    }
    // Unset, NODE_ENV means development for everything else (the demo admin), but logs no links.
    const unset = loadConfig({});
    expect(unset.nodeEnv).toBe('development');
    expect(unset.logMailLinks).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).logMailLinks).toBe(true);
  });

  it('names the SMTP server at start without the credentials of SMTP_URL', () => {
    const config = loadConfig({ NODE_ENV: 'test', SMTP_URL: 'smtps://mailer:s3cret@mail.example.com:465' });
    expect(describeMailDelivery(config)).toBe('Mail is sent through the SMTP server mail.example.com:465 (SMTP_URL).');
  });

  it('names files so that they sort in sending order', async () => {
    const { config, mailer } = setup();
    for (const name of ['first', 'second', 'third']) {
      await mailer.send({ to: `${name}@example.com`, subject: name, text: name, html: `<p>${name}</p>` });
    }
    expect(readOutbox(config.outboxDir).map((mail) => mail.subject)).toEqual(['first', 'second', 'third']);
    expect(fs.readdirSync(config.outboxDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('SMTP mode (SMTP_URL set)', () => {
  let capture: SmtpCapture;

  it('sends through a real SMTP server, which receives both parts and the link intact', async () => {
    capture = await startSmtpCapture();
    cleanups.push(() => capture.close());
    const { config, mailer } = setup({ SMTP_URL: capture.url });
    expect(mailer.mode).toBe('smtp');

    const content = contactAdminEmail(config, { name: 'Eve', email: 'eve@example.org', message: `Please look at ${LINK}` });
    await mailer.send({ to: 'admin@example.com', ...content });

    expect(capture.messages).toHaveLength(1);
    const received = capture.messages[0]!;
    expect(received.from).toBe('no-reply@example.com');
    expect(received.to).toEqual(['admin@example.com']);
    const mail = parseMail(received.raw);
    expect(mail.from).toBe(FROM);
    expect(mail.to).toBe('admin@example.com');
    expect(mail.replyTo).toBe('eve@example.org');
    expect(mail.subject).toBe('Dimensional Control: Contact message from Eve');
    expect(mail.partTypes).toEqual(['text/plain', 'text/html']);
    expect(linksIn(mail.text)).toContain(LINK);
    // Nothing is written to the outbox when mail really goes out.
    expect(fs.existsSync(config.outboxDir)).toBe(false);
  });

  it('sendSafely logs a refused connection and returns false instead of throwing', async () => {
    const { config, log, mailer } = setup({ SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });

    const sent = await sendSafely(mailer, { to: 'user@example.com', ...verificationEmail(config, { link: LINK }) }, log);

    expect(sent).toBe(false);
    const errors = log.lines.filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toContain('user@example.com');
    expect(String(errors[0]?.detail)).toMatch(/ECONNREFUSED/);
  });

  it('send itself rejects on a refused connection (callers that must know can await it)', async () => {
    const { mailer } = setup({ SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` });
    await expect(mailer.send({ to: 'user@example.com', subject: 's', text: 't', html: '<p>t</p>' })).rejects.toThrow(/ECONNREFUSED/);
  });
});

// Admin notices go through notifyAdmins (every admin and NOTIFY_EMAIL): tests/server/features/inbox/notify.test.ts.
describe('sendSafely', () => {
  it('sendSafely returns true once the message is handed over', async () => {
    const { config, log, mailer } = setup();
    expect(await sendSafely(mailer, { to: 'user@example.com', subject: 'Hi', text: 'Hi', html: '<p>Hi</p>' }, log)).toBe(true);
    expect(readOutbox(config.outboxDir)).toHaveLength(1);
  });
});

describe('the daily cap per recipient (issue 17, item 3)', () => {
  const mail = (to: string) => ({ to, subject: 'Hi', text: 'Hi', html: '<p>Hi</p>' });

  it('sendSafely sends ACCOUNT_MAILS_PER_DAY mails to one mailbox a day, then drops the rest, says true and logs it', async () => {
    const { config, log, mailer, advance } = setup({ ACCOUNT_MAILS_PER_DAY: '3' });
    // Case and "+tags" reach the same mailbox: they count together.
    const addresses = ['ann@example.com', 'Ann@Example.com', 'ann+1@example.com', 'ann+2@example.com', 'Ann Lee <ann@example.com>'];
    const answers = [];
    for (const to of addresses) answers.push(await sendSafely(mailer, mail(to), log));
    expect(answers).toEqual([true, true, true, true, true]);
    expect(readOutbox(config.outboxDir)).toHaveLength(3);
    const warnings = log.lines.filter((line) => line.level === 'warn').map((line) => line.message);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('not sent: the address has had its account mails for today (ACCOUNT_MAILS_PER_DAY)');
    // Another mailbox is not affected; the capped one gets mail again a day later.
    expect(await sendSafely(mailer, mail('bob@example.com'), log)).toBe(true);
    expect(readOutbox(config.outboxDir)).toHaveLength(4);
    advance(24 * 60 * 60 * 1000);
    await sendSafely(mailer, mail('ann@example.com'), log);
    expect(readOutbox(config.outboxDir)).toHaveLength(5);
  });

  it('admin notices and raw sends (mailings, reminders) do not count and are not capped', async () => {
    const { config, log, mailer } = setup({ ACCOUNT_MAILS_PER_DAY: '1', ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'a-long-password' });
    for (let index = 0; index < 3; index += 1) {
      // How notifyAdmins (server/features/inbox/notify.ts) hands each admin's copy over.
      expect(
        await deliverSafely(mailer, { to: 'boss@example.com', ...contactAdminEmail(config, { name: 'Eve', email: 'eve@example.org', message: 'Hi' }) }, log),
      ).toBe(true);
      await mailer.send(mail('ann@example.com'));
    }
    expect(readOutbox(config.outboxDir)).toHaveLength(6);
    await sendSafely(mailer, mail('ann@example.com'), log);
    expect(readOutbox(config.outboxDir)).toHaveLength(7);
  });

  it('keys an address by its mailbox', () => {
    expect(recipientKey(' Ann+News@Example.COM ')).toBe('ann@example.com');
    expect(recipientKey('Ann Lee <ann+x@example.com>')).toBe('ann@example.com');
    expect(recipientKey('+only@example.com')).toBe('+only@example.com');
  });
});
