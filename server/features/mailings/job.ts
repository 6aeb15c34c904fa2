// Sends queued mailings in the background (issue 7, item 4): a mail server that is down delays a mailing
// but never loses a message, and no recipient gets one twice.
//
// How: every recipient is a row (server/features/mailings/queries.ts). A run claims a small batch of due rows by
// moving their next_attempt_at a lease into the future (one atomic UPDATE, in the database, so the claim
// survives a restart and two workers never share a row), sends them, and marks each row sent in its own
// write right after the mail server accepted it. A crash between the server's "250 OK" and that write is
// the one way to send a message twice: the row becomes due when its lease ends and goes out again. That
// window is as wide as the messages in flight; closing it entirely would need the mail server to take part
// (it cannot be done on our side of SMTP), so the trade-off is documented in docs/decisions/0011-admin-console.md.
// A server stop (docs/decisions/0033-graceful-stop.md) hands the batch's untried rows back at once and lets
// the messages in flight finish and be marked; those cut by the stop deadline are due again at the next start.
//
// In flight: one message per connection of the SMTP pool (MAILING_IN_FLIGHT), so one connection's round
// trips overlap the other's (docs/decisions/0061-mailing-two-in-flight.md). The first message of a run goes
// alone: a mail server that is down costs one attempt and one connection, as it did with one in flight, and
// only once it has accepted a message do the others start. A lane that finds the batch all taken claims the
// next one at once, beside the messages still in flight, so no connection idles at a batch's end
// (docs/decisions/0075-mailing-lanes-across-batches.md).
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
import type { User } from '../../db/schema.ts';
import {
  claimDueRecipients,
  getMailingsByIds,
  markRecipientSent,
  markRecipientSkipped,
  recordRecipientFailure,
  releaseRecipients,
  type Mailing,
  type MailingRecipient,
} from './queries.ts';
import { mailingMessage, renderMailing, unsubscribeLink, type RenderedMailing } from './message.ts';
import { startPeriodicJob } from '../../process/periodic-job.ts';
import { mailSendFailures } from '../../ops/metrics.ts';
import { SMTP_POOL_CONNECTIONS, type MailMessage } from '../../mail/transport.ts';
import { loadMarkdown } from '../../lazy-libraries.ts';

export const MAILING_RETRY = {
  baseMs: 5_000,
  maxMs: 15 * 60_000,
  /** Attempts the mail server answered with an error; outages do not count. */
  maxAttempts: 8,
} as const;

/** Long enough for a batch even when every send waits out the SMTP timeouts (10 s connect + 30 s socket). */
export const MAILING_LEASE_MS = 15 * 60_000;
export const MAILING_BATCH_SIZE = 10;
/** Messages sent at once, once the server has accepted one in this run: one per pooled SMTP connection. */
export const MAILING_IN_FLIGHT = SMTP_POOL_CONNECTIONS;

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
  /** A mailing was queued: send now instead of at the next tick (server/process/periodic-job.ts). */
  wake(): void;
  /**
   * Stops the timer and gives the rest of the batch back at once (due now, for the next start); the messages
   * in flight finish and are marked. Resolves when idle.
   */
  stop(): Promise<void>;
  /**
   * The stop deadline passed with messages still in flight: their rows are made due now, so the next start
   * sends them at once instead of after their lease (docs/decisions/0033-graceful-stop.md: at least once).
   */
  abandon(): void;
}

export interface MailingWorkerOptions {
  /** Pause between runs; 0 or less: no timer (tests drive runOnce themselves). */
  intervalMs: number;
  batchSize?: number;
  leaseMs?: number;
  /** Messages in flight at once (default MAILING_IN_FLIGHT); 1 sends one by one. */
  inFlight?: number;
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

/**
 * A run in progress: the batch claimed last (its untried rows are what a stop hands back), the recipients
 * and mailings of that batch, and every message in flight (what a cut stop abandons), whichever batch it
 * came from.
 */
interface RunInProgress {
  batch: MailingRecipient[];
  /** Index of the next row to try; rows before it were taken by a lane. */
  next: number;
  mailingsById: Map<number, Mailing>;
  usersById: Map<number, User>;
  inFlight: Set<MailingRecipient>;
  /** The mail server went away: no lane takes another row. */
  outage: boolean;
  /** A write failed: no lane takes another row, and the rest of the batch stays leased, as a crash leaves it. */
  broken: boolean;
}

/** A row a lane took, with what it needs to send it (undefined when the row's user or mailing was deleted since the claim). */
interface TakenRow {
  row: MailingRecipient;
  mailing: Mailing | undefined;
  user: User | undefined;
}

export function startMailingWorker(ctx: Pick<AppContext, 'config' | 'db' | 'log' | 'mailer' | 'now'>, options: MailingWorkerOptions): MailingWorker {
  const batchSize = options.batchSize ?? MAILING_BATCH_SIZE;
  const leaseMs = options.leaseMs ?? MAILING_LEASE_MS;
  const inFlight = Math.max(1, options.inFlight ?? MAILING_IN_FLIGHT);
  // In memory on purpose: after a restart the worker simply tries the server again at once.
  let consecutiveOutages = 0;
  let pausedUntil = 0;
  // Set when the server accepted a message in this run; until then one message goes at a time.
  let accepting = false;
  // Rendering markdown is the costly step; a mailing is rendered once, not once per recipient.
  const renderCache = new Map<number, RenderedMailing>();
  let sending: RunInProgress | null = null;

  // The pipeline is loaded by the first message this process sends (server/lazy-libraries.ts).
  const rendered = async (mailing: { id: number; title: string; body: string }): Promise<RenderedMailing> => {
    const cached = renderCache.get(mailing.id);
    if (cached) return cached;
    const markdown = await loadMarkdown();
    // The other lane may have rendered it while the pipeline loaded.
    let result = renderCache.get(mailing.id);
    if (!result) {
      if (renderCache.size >= 16) renderCache.delete(renderCache.keys().next().value as number);
      result = renderMailing(markdown, ctx.config.siteUrl, mailing);
      renderCache.set(mailing.id, result);
    }
    return result;
  };

  /** Hands the rows no lane has taken back, due at `retryAt`; no lane takes another. */
  function releaseUntried(run: RunInProgress, retryAt: number): number {
    const rest = run.batch.slice(run.next);
    run.next = run.batch.length;
    if (rest.length > 0) releaseRecipients(ctx.db, rest, { retryAt });
    return rest.length;
  }

  /**
   * The next row to send. When the batch is all taken, the next one is claimed here, by the lane that needs
   * it, while the other lanes' messages are still in flight: no connection waits for the slowest message of
   * a batch before the next batch starts (docs/decisions/0075-mailing-lanes-across-batches.md). Null when
   * nothing is due or the run must end.
   */
  function take(run: RunInProgress): TakenRow | null {
    if (run.outage || run.broken || stopping()) return null;
    if (run.next >= run.batch.length) {
      const now = ctx.now();
      if (now < pausedUntil) return null;
      const batch = claimDueRecipients(ctx.db, { now, limit: batchSize, leaseUntil: now + leaseMs });
      if (batch.length === 0) return null;
      run.batch = batch;
      run.next = 0;
      run.mailingsById = new Map(getMailingsByIds(ctx.db, [...new Set(batch.map((row) => row.mailing_id))]).map((mailing) => [mailing.id, mailing]));
      run.usersById = new Map(
        getUsersByIds(
          ctx.db,
          batch.map((row) => row.user_id),
        ).map((user) => [user.id, user]),
      );
    }
    const row = run.batch[run.next] as MailingRecipient;
    run.next += 1;
    return { row, mailing: run.mailingsById.get(row.mailing_id), user: run.usersById.get(row.user_id) };
  }

  async function sendOne(run: RunInProgress, { row, mailing, user }: TakenRow, summary: MailingRunSummary, widen: () => void): Promise<void> {
    // Deleted since the claim: the cascade removed the row as well.
    if (!mailing || !user) return;
    if (user.unsubscribed_at) {
      markRecipientSkipped(ctx.db, row, SKIPPED_UNSUBSCRIBED);
      summary.skipped += 1;
      return;
    }
    // In flight from here: a stop while the message is still being rendered makes it due again, as one being sent.
    run.inFlight.add(row);
    let message: MailMessage;
    try {
      message = mailingMessage(ctx.config, await rendered(mailing), { email: row.email, unsubscribeUrl: unsubscribeLink(ctx, row.user_id) });
    } catch (error) {
      // A rendering that throws is no send failure: the run fails, and the row stays leased, as it always did.
      run.inFlight.delete(row);
      throw error;
    }
    try {
      await ctx.mailer.send(message);
    } catch (error) {
      mailSendFailures.inc({ kind: 'mailing' });
      const kind = classifySendError(error);
      const text = describeError(error);
      if (kind === 'unreachable') {
        // Only the rows that were tried carry the error; the others were never attempted. Messages in
        // flight beside this one lose the same server: one outage, one step of backoff.
        if (!run.outage) {
          run.outage = true;
          accepting = false;
          consecutiveOutages += 1;
          pausedUntil = ctx.now() + retryDelay(consecutiveOutages);
          releaseUntried(run, pausedUntil);
          ctx.log.warn(`mailing: mail server unavailable, pausing ${retryDelay(consecutiveOutages) / 1000} s: ${text}`);
        }
        releaseRecipients(ctx.db, [row], { retryAt: pausedUntil, error: `Mail server unavailable (will retry): ${text}` });
        summary.outage = true;
        return;
      }
      const attempts = row.attempts + 1;
      const retryAt = kind === 'rejected' || attempts >= MAILING_RETRY.maxAttempts ? null : ctx.now() + retryDelay(attempts);
      recordRecipientFailure(ctx.db, row, { attempts, error: text, retryAt });
      if (retryAt === null) summary.failed += 1;
      else summary.retried += 1;
      return;
    } finally {
      run.inFlight.delete(row);
    }
    markRecipientSent(ctx.db, row, new Date(ctx.now()).toISOString());
    summary.sent += 1;
    // A message that was already on its way when the other lane found the server gone changes no backoff.
    if (run.outage) return;
    consecutiveOutages = 0;
    if (!accepting) {
      accepting = true;
      widen();
    }
  }

  async function drain(): Promise<MailingRunSummary> {
    const summary: MailingRunSummary = { sent: 0, retried: 0, failed: 0, skipped: 0, outage: false };
    accepting = false;
    const run: RunInProgress = { batch: [], next: 0, mailingsById: new Map(), usersById: new Map(), inFlight: new Set(), outage: false, broken: false };
    sending = run;

    async function lane(): Promise<void> {
      try {
        // A stop hands the untried rows back itself (stop() below), and take() claims nothing once stopping.
        for (let taken = take(run); taken; taken = take(run)) await sendOne(run, taken, summary, widen);
      } catch (error) {
        // A failed write: the other lanes take no more rows; the rest stays leased, as a crash would leave it.
        run.broken = true;
        throw error;
      }
    }

    const lanes: Promise<void>[] = [];
    const widen = () => {
      while (lanes.length < inFlight) lanes.push(lane());
    };
    // The first message of a run goes alone (see the top of this file); sendOne widens once one is accepted.
    lanes.push(lane());
    // Lanes are added while the first one runs, so the list is read again after each; every lane is waited
    // for before an error goes on (none is left running, or rejecting unheard, behind it).
    const errors: unknown[] = [];
    for (let index = 0; index < lanes.length; index += 1) await lanes[index]?.catch((error: unknown) => errors.push(error));
    sending = null;
    if (errors.length > 0) throw errors[0];
    if (summary.sent + summary.failed > 0) ctx.log.info(`mailing: ${summary.sent} sent, ${summary.failed} failed, ${summary.retried} to retry`);
    return summary;
  }

  const job = startPeriodicJob({ intervalMs: options.intervalMs, log: ctx.log, label: 'mailing', run: drain });
  const stopping = () => job.isStopping();
  return {
    runOnce: job.runOnce,
    wake: job.wake,
    stop() {
      const idle = job.stop();
      if (sending) {
        // Handed back now, not when the messages in flight are done: a deadline that cuts those sends must
        // not leave the rest leased (and so held back) for MAILING_LEASE_MS after the next start.
        const handedBack = releaseUntried(sending, ctx.now());
        const flying = sending.inFlight.size;
        const after = flying === 0 ? '' : ` after the ${flying === 1 ? 'message' : `${flying} messages`} in flight`;
        ctx.log.info(`mailing: stopping${after}; ${handedBack} claimed message${handedBack === 1 ? '' : 's'} handed back`);
      }
      return idle;
    },
    abandon() {
      const cut = sending ? [...sending.inFlight] : [];
      if (cut.length === 0) return;
      releaseRecipients(ctx.db, cut, { retryAt: ctx.now(), error: 'Interrupted by a server stop (will be sent again).' });
      for (const row of cut) {
        ctx.log.warn(
          `mailing: the message to recipient ${row.user_id} of mailing ${row.mailing_id} was cut by the stop deadline; it is sent again at the next start`,
        );
      }
      sending = null;
    },
  };
}
