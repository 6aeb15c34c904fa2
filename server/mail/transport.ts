// The one mail sender every flow uses (issue 3, item 2). With SMTP_URL set, messages go out through
// nodemailer's SMTP transport; without it they are rendered by nodemailer into real RFC 822 files in the
// outbox, so development and tests need no mail server and nothing is lost.
import nodemailer from 'nodemailer';
import type { Config } from '../env.ts';
import type { Logger } from '../log.ts';
import { extractLinks, writeOutboxFile } from './outbox.ts';
import { mailSendFailures } from '../ops/metrics.ts';

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
}

export interface MailerDeps {
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'outboxDir'>;
  log: Logger;
}

// Short enough that a dead SMTP server fails a request within seconds instead of hanging it.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function createMailer({ config, log }: MailerDeps): Mailer {
  return config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createOutboxMailer(config.outboxDir, config.mailFrom, log);
}

function createSmtpMailer(url: string, from: string): Mailer {
  // A pool keeps the SMTP session open between messages: without it every message of a mailing paid for a
  // new connection, greeting and EHLO (measured by `npm run bench`: about 9 messages/s to a local server).
  const transport = nodemailer.createTransport({ url, pool: true, maxConnections: 2, maxMessages: 500, ...SMTP_TIMEOUTS });
  return {
    mode: 'smtp',
    send: async (message) => {
      await transport.sendMail(toNodemailer(message, from));
    },
    close: () => transport.close(),
  };
}

function createOutboxMailer(outboxDir: string, from: string, log: Logger): Mailer {
  // buffer: true makes nodemailer hand back the whole rendered message instead of a stream.
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    mode: 'outbox',
    send: async (message) => {
      const info = await transport.sendMail(toNodemailer(message, from));
      const file = await writeOutboxFile(outboxDir, info.message as Buffer);
      log.info(`Mail "${message.subject}" to ${message.to} written to ${file}`);
      // Logged so a developer can follow a verification or reset link without opening the file.
      for (const link of extractLinks(message.text)) log.info(`  link: ${link}`);
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
 * Sends without ever throwing: a failure is logged and reported as false, so the action that asked for
 * the mail (a registration, a license request) still completes and the user can ask for the mail again.
 */
export async function sendSafely(mailer: Mailer, message: MailMessage, log: Logger): Promise<boolean> {
  try {
    await mailer.send(message);
    return true;
  } catch (error) {
    mailSendFailures.inc({ kind: 'message' });
    log.error(`Mail "${message.subject}" to ${message.to} could not be sent`, error);
    return false;
  }
}

/**
 * Sends a notification to the configured admin address (ADMIN_EMAIL). Without one there is nobody to
 * tell: that is logged as a warning and reported as false, never an error for the visitor.
 */
export async function sendToAdmin(mailer: Mailer, config: Pick<Config, 'adminEmail'>, content: MailContent, log: Logger): Promise<boolean> {
  if (!config.adminEmail) {
    log.warn(`Mail "${content.subject}" not sent: ADMIN_EMAIL is not configured`);
    return false;
  }
  return sendSafely(mailer, { ...content, to: config.adminEmail }, log);
}
