// Sends queued mailings in the background (issue 7, item 4): a mail server that is down delays a mailing
// but never loses a message, and no recipient gets one twice.
//
// How: every recipient is a row (server/features/mailings/queries.ts). A run claims a small batch of due rows by
// moving their next_attempt_at a lease into the future (one atomic UPDATE, in the database, so the claim
// survives a restart and two workers never share a row), sends them one by one, and marks each row sent in
// its own write right after the mail server accepted it. A crash between the server's "250 OK" and that
// write is the one way to send a message twice: the row becomes due when its lease ends and goes out
// again. That window is one message wide; closing it entirely would need the mail server to take part
// (it cannot be done on our side of SMTP), so the trade-off is documented in docs/decisions/0011-admin-console.md.
// A server stop (docs/decisions/0033-graceful-stop.md) hands the batch's untried rows back at once and lets
// the message in flight finish and be marked; one cut by the stop deadline is due again at the next start.
//
// Failures are of three kinds (classifySendError):
// - unreachable: the server could not be reached or refused the session (connection refused, timeout,
//   421, a bad greeting, TLS or login failure). Not the recipient's fault, so no attempt is counted: the
//   batch is given back, and the worker pauses with exponential backoff, however long the outage lasts.
// - rejected: the server refused this recipient for good (5xx to RCPT TO): failed at once.
// - retry: anything else the server said about this message (4xx, a 5xx to DATA…): counted; retried with
//   backoff (5 s · 2^(attempts-1), capped at 15 min) and failed after MAILING_RETRY.maxAttempts.
import type { AppContext } from '../../context.ts';
import { getUsersByIds } from '../../db/queries/users.ts';
import {
  claimDueRecipients,
  getMailingsByIds,
  markRecipientSent,
  markRecipientSkipped,
  recordRecipientFailure,
  releaseRecipients,
  type MailingRecipient,
} from './queries.ts';
import { mailingMessage, renderMailing, unsubscribeLink, type RenderedMailing } from './message.ts';
import { startPeriodicJob } from '../../process/periodic-job.ts';
import { mailSendFailures } from '../../ops/metrics.ts';

export const MAILING_RETRY = {
  baseMs: 5_000,
  maxMs: 15 * 60_000,
  /** Attempts the mail server answered with an error; outages do not count. */
  maxAttempts: 8,
} as const;

/** Long enough for a batch even when every send waits out the SMTP timeouts (10 s connect + 30 s socket). */
export const MAILING_LEASE_MS = 15 * 60_000;
export const MAILING_BATCH_SIZE = 10;

export const SKIPPED_UNSUBSCRIBED = 'Unsubscribed before the mailing was sent.';

export type SendFailure = 'unreachable' | 'rejected' | 'retry';

export interface MailingRunSummary {
  sent: number;
  /** Failed attempts that will be retried. */
  retried: number;
  /** Rows that failed for good in this run. */
  failed: number;
  skipped: number;
  /** True when the run stopped because the mail server was unreachable. */
  outage: boolean;
}

export interface MailingWorker {
  /** Sends everything due now (in batches) and resolves with what happened; concurrent calls share one run. */
  runOnce(): Promise<MailingRunSummary>;
  /**
   * Stops the timer and gives the rest of the batch back at once (due now, for the next start); the message
   * in flight finishes and is marked. Resolves when idle.
   */
  stop(): Promise<void>;
  /**
   * The stop deadline passed with a message still in flight: its row is made due now, so the next start sends
   * it at once instead of after its lease (docs/decisions/0033-graceful-stop.md: at least once).
   */
  abandon(): void;
}

export interface MailingWorkerOptions {
  /** Pause between runs; 0 or less: no timer (tests drive runOnce themselves). */
  intervalMs: number;
  batchSize?: number;
  leaseMs?: number;
}

/** Backoff before retry number `attempt` (1-based): 5 s, 10 s, 20 s … capped at 15 minutes. */
export function retryDelay(attempt: number): number {
  return Math.min(MAILING_RETRY.baseMs * 2 ** Math.max(0, attempt - 1), MAILING_RETRY.maxMs);
}

const UNREACHABLE_CODES = new Set(['ECONNECTION', 'ESOCKET', 'ETIMEDOUT', 'EDNS', 'ETLS', 'EAUTH', 'ENOAUTH', 'ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH']);

/** Reads the fields nodemailer puts on its errors (code, command, responseCode). */
export function classifySendError(error: unknown): SendFailure {
  const { code, command, responseCode } = (error ?? {}) as { code?: unknown; command?: unknown; responseCode?: unknown };
  if (command === 'CONN' || (typeof code === 'string' && UNREACHABLE_CODES.has(code)) || responseCode === 421) return 'unreachable';
  if (command === 'RCPT TO' && typeof responseCode === 'number' && responseCode >= 500) return 'rejected';
  return 'retry';
}

function describeError(error: unknown): string {
  const { code, response, message } = (error ?? {}) as { code?: unknown; response?: unknown; message?: unknown };
  const text = [typeof code === 'string' ? code : '', typeof response === 'string' ? response : typeof message === 'string' ? message : String(error)]
    .filter(Boolean)
    .join(': ');
  return text.length > 500 ? `${text.slice(0, 497)}...` : text;
}

export function startMailingWorker(ctx: Pick<AppContext, 'config' | 'db' | 'log' | 'mailer' | 'now'>, options: MailingWorkerOptions): MailingWorker {
  const batchSize = options.batchSize ?? MAILING_BATCH_SIZE;
  const leaseMs = options.leaseMs ?? MAILING_LEASE_MS;
  // In memory on purpose: after a restart the worker simply tries the server again at once.
  let consecutiveOutages = 0;
  let pausedUntil = 0;
  // Rendering markdown is the costly step; a mailing is rendered once, not once per recipient.
  const renderCache = new Map<number, RenderedMailing>();
  // What a stop must hand back: the batch being sent and the position of the message in flight.
  let sending: { batch: MailingRecipient[]; index: number } | null = null;

  const rendered = (mailing: { id: number; title: string; body: string }): RenderedMailing => {
    let result = renderCache.get(mailing.id);
    if (!result) {
      if (renderCache.size >= 16) renderCache.delete(renderCache.keys().next().value as number);
      result = renderMailing(ctx.config.siteUrl, mailing);
      renderCache.set(mailing.id, result);
    }
    return result;
  };

  async function sendBatch(batch: MailingRecipient[], summary: MailingRunSummary): Promise<'continue' | 'stop'> {
    const mailingsById = new Map(getMailingsByIds(ctx.db, [...new Set(batch.map((row) => row.mailing_id))]).map((mailing) => [mailing.id, mailing]));
    const usersById = new Map(
      getUsersByIds(
        ctx.db,
        batch.map((row) => row.user_id),
      ).map((user) => [user.id, user]),
    );
    for (const [index, row] of batch.entries()) {
      sending = { batch, index };
      if (stopping()) {
        // Due again at once for the next start, instead of waiting out the lease.
        releaseRecipients(ctx.db, batch.slice(index), { retryAt: ctx.now() });
        sending = null;
        return 'stop';
      }
      const mailing = mailingsById.get(row.mailing_id);
      const user = usersById.get(row.user_id);
      // Deleted since the claim: the cascade removed the row as well.
      if (!mailing || !user) continue;
      if (user.unsubscribed_at) {
        markRecipientSkipped(ctx.db, row, SKIPPED_UNSUBSCRIBED);
        summary.skipped += 1;
        continue;
      }
      const message = mailingMessage(ctx.config, rendered(mailing), { email: row.email, unsubscribeUrl: unsubscribeLink(ctx, row.user_id) });
      try {
        await ctx.mailer.send(message);
      } catch (error) {
        mailSendFailures.inc({ kind: 'mailing' });
        const kind = classifySendError(error);
        const text = describeError(error);
        if (kind === 'unreachable') {
          consecutiveOutages += 1;
          pausedUntil = ctx.now() + retryDelay(consecutiveOutages);
          // Only the row that was tried carries the error; the others were never attempted.
          releaseRecipients(ctx.db, [row], { retryAt: pausedUntil, error: `Mail server unavailable (will retry): ${text}` });
          releaseRecipients(ctx.db, batch.slice(index + 1), { retryAt: pausedUntil });
          ctx.log.warn(`mailing: mail server unavailable, pausing ${retryDelay(consecutiveOutages) / 1000} s: ${text}`);
          summary.outage = true;
          sending = null;
          return 'stop';
        }
        const attempts = row.attempts + 1;
        const retryAt = kind === 'rejected' || attempts >= MAILING_RETRY.maxAttempts ? null : ctx.now() + retryDelay(attempts);
        recordRecipientFailure(ctx.db, row, { attempts, error: text, retryAt });
        if (retryAt === null) summary.failed += 1;
        else summary.retried += 1;
        continue;
      }
      markRecipientSent(ctx.db, row, new Date(ctx.now()).toISOString());
      consecutiveOutages = 0;
      summary.sent += 1;
    }
    sending = null;
    return 'continue';
  }

  async function drain(): Promise<MailingRunSummary> {
    const summary: MailingRunSummary = { sent: 0, retried: 0, failed: 0, skipped: 0, outage: false };
    while (!stopping() && ctx.now() >= pausedUntil) {
      const now = ctx.now();
      const batch = claimDueRecipients(ctx.db, { now, limit: batchSize, leaseUntil: now + leaseMs });
      if (batch.length === 0) break;
      if ((await sendBatch(batch, summary)) === 'stop') break;
    }
    if (summary.sent + summary.failed > 0) ctx.log.info(`mailing: ${summary.sent} sent, ${summary.failed} failed, ${summary.retried} to retry`);
    return summary;
  }

  const job = startPeriodicJob({ intervalMs: options.intervalMs, log: ctx.log, label: 'mailing', run: drain });
  const stopping = () => job.isStopping();
  return {
    runOnce: job.runOnce,
    stop() {
      const idle = job.stop();
      if (sending) {
        // Handed back now, not when the message in flight is done: a deadline that cuts that send must not
        // leave the rest leased (and so held back) for MAILING_LEASE_MS after the next start.
        const rest = sending.batch.slice(sending.index + 1);
        if (rest.length > 0) releaseRecipients(ctx.db, rest, { retryAt: ctx.now() });
        ctx.log.info(`mailing: stopping after the message in flight; ${rest.length} claimed message${rest.length === 1 ? '' : 's'} handed back`);
      }
      return idle;
    },
    abandon() {
      const row = sending?.batch[sending.index];
      if (!row) return;
      releaseRecipients(ctx.db, [row], { retryAt: ctx.now(), error: 'Interrupted by a server stop (will be sent again).' });
      ctx.log.warn(
        `mailing: the message to recipient ${row.user_id} of mailing ${row.mailing_id} was cut by the stop deadline; it is sent again at the next start`,
      );
      sending = null;
    },
  };
}
