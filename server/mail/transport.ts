// The one mail sender every flow uses (issue 3, item 2). With SMTP_URL set, messages go out through
// nodemailer's SMTP transport; without it they are rendered by nodemailer into real RFC 822 files in the
// outbox, so development and tests need no mail server and nothing is lost.
import type { Transporter } from 'nodemailer';
import { loadNodemailer, onFirstUse } from '../lazy-libraries.ts';
import type { Db } from '../db/client.ts';
import type { Config } from '../env.ts';
import type { Logger } from '../log.ts';
import { extractLinks, writeOutboxFile } from './outbox.ts';
import { mailSendFailures } from '../ops/metrics.ts';
import { createRecipientCap } from './recipient-cap.ts';

/** What a template produces: the recipient is added by the caller. */
export interface MailContent {
  subject: string;
  /** Plain-text part: every message has one, for clients that do not show HTML. */
  text: string;
  html: string;
  replyTo?: string;
}

export interface MailMessage extends MailContent {
  to: string;
  /** Extra header fields (List-Unsubscribe on mailings); values must be single lines. */
  headers?: Record<string, string>;
}

export interface Mailer {
  readonly mode: 'smtp' | 'outbox';
  /** Sends (or writes) one message; rejects when the message could not be handed over. */
  send(message: MailMessage): Promise<void>;
  /** Releases the transport (open SMTP sockets); the mailer must not be used afterwards. */
  close(): void;
  /**
   * Counts one account mail to the address against ACCOUNT_MAILS_PER_DAY (server/mail/recipient-cap.ts);
   * false when the address has had its share today. sendSafely asks it before every send.
   */
  admitAccountMail(to: string): boolean;
}

export interface MailerDeps {
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'outboxDir' | 'accountMailsPerDay' | 'logMailLinks'>;
  log: Logger;
  /** The shared database: the daily cap per recipient is counted there, across every process. */
  db: Db;
  now: () => number;
}

/**
 * Connections the SMTP pool keeps open: the mailing worker keeps as many messages in flight
 * (server/features/mailings/job.ts), so one connection's round trips overlap the other's.
 */
export const SMTP_POOL_CONNECTIONS = 2;

// Short enough that a dead SMTP server fails a request within seconds instead of hanging it.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function createMailer({ config, log, db, now }: MailerDeps): Mailer {
  const cap = createRecipientCap({ db, now, limit: config.accountMailsPerDay });
  const transport = config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createOutboxMailer(config, log);
  return { ...transport, admitAccountMail: cap.admit };
}

/** Where mail goes, for the start-up log: never the SMTP URL itself (it may hold a password). */
export function describeMailDelivery(config: Pick<Config, 'smtpUrl' | 'outboxDir' | 'logMailLinks'>): string {
  if (config.smtpUrl) return `Mail is sent through the SMTP server ${new URL(config.smtpUrl).host} (SMTP_URL).`;
  const links = config.logMailLinks ? 'their links are logged (NODE_ENV=development)' : 'their links are not logged (NODE_ENV=development logs them)';
  return `Mail is not sent (no SMTP_URL): messages are written to ${config.outboxDir}; ${links}.`;
}

type Transport = Omit<Mailer, 'admitAccountMail'>;

/**
 * nodemailer's transport, made at the first message: most serving processes never send one, and nodemailer is
 * loaded only then (server/lazy-libraries.ts). Once closed, it is not made again.
 */
function lazyTransport(make: (nodemailer: Awaited<ReturnType<typeof loadNodemailer>>) => Transporter) {
  const transport = onFirstUse(async () => make(await loadNodemailer()));
  // The last transport handed out, or null while none was asked for: what close() closes. Closing it never
  // calls transport() again, which after a failed load would load nodemailer only to close what it made.
  let handedOut: Promise<Transporter> | null = null;
  let closed = false;
  return {
    get(): Promise<Transporter> {
      if (closed) return Promise.reject(new Error('The mailer was closed.'));
      return (handedOut = transport());
    },
    close(): void {
      closed = true;
      // A transport that failed to load has nothing to close.
      void handedOut?.then(
        (made) => made.close(),
        () => undefined,
      );
    },
  };
}

function createSmtpMailer(url: string, from: string): Transport {
  // A pool keeps the SMTP session open between messages: without it every message of a mailing paid for a
  // new connection, greeting and EHLO (measured by `npm run bench`: about 9 messages/s to a local server).
  const transport = lazyTransport((nodemailer) =>
    nodemailer.createTransport({ url, pool: true, maxConnections: SMTP_POOL_CONNECTIONS, maxMessages: 500, ...SMTP_TIMEOUTS }),
  );
  return {
    mode: 'smtp',
    send: async (message) => {
      await (await transport.get()).sendMail(toNodemailer(message, from));
    },
    close: () => transport.close(),
  };
}

function createOutboxMailer(config: Pick<Config, 'outboxDir' | 'mailFrom' | 'logMailLinks'>, log: Logger): Transport {
  // buffer: true makes nodemailer hand back the whole rendered message instead of a stream.
  const transport = lazyTransport((nodemailer) => nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }));
  return {
    mode: 'outbox',
    send: async (message) => {
      const info = await (await transport.get()).sendMail(toNodemailer(message, config.mailFrom));
      const file = await writeOutboxFile(config.outboxDir, info.message as Buffer);
      log.info(`Mail "${message.subject}" to ${message.to} written to ${file}`);
      // Logged so a developer can follow a verification or reset link without opening the file; only in
      // development, since these links work (a reset link in a log is a password for whoever reads it).
      if (config.logMailLinks) for (const link of extractLinks(message.text)) log.info(`  link: ${link}`);
    },
    close: () => transport.close(),
  };
}

function toNodemailer(message: MailMessage, from: string) {
  return {
    from,
    to: message.to,
    replyTo: message.replyTo,
    // Header values must stay on one line whatever a user typed into a name that ends up here.
    subject: message.subject.replace(/\s+/g, ' ').trim(),
    text: message.text,
    html: message.html,
    headers: message.headers,
  };
}

/**
 * Sends an account mail without ever throwing: a failure is logged and reported as false, so the action
 * that asked for the mail (a registration, a license request) still completes and the user can ask for
 * the mail again. Every mail through here counts in its recipient's daily cap (ACCOUNT_MAILS_PER_DAY): past
 * it the mail is dropped, logged, and reported as true, so that the answer to the visitor is the same as
 * when it went out and tells nothing about the cap (issue 17, item 3).
 */
export async function sendSafely(mailer: Mailer, message: MailMessage, log: Logger): Promise<boolean> {
  if (!mailer.admitAccountMail(message.to)) {
    log.warn(`Mail "${message.subject}" to ${message.to} not sent: the address has had its account mails for today (ACCOUNT_MAILS_PER_DAY)`);
    return true;
  }
  return deliverSafely(mailer, message, log);
}

/**
 * Sends without ever throwing, outside the daily cap: for the site's own people (admin notices,
 * server/features/inbox/notify.ts), whom a visitor cannot choose.
 */
export async function deliverSafely(mailer: Mailer, message: MailMessage, log: Logger): Promise<boolean> {
  try {
    await mailer.send(message);
    return true;
  } catch (error) {
    mailSendFailures.inc({ kind: 'message' });
    log.error(`Mail "${message.subject}" to ${message.to} could not be sent`, error);
    return false;
  }
}
