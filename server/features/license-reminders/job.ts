// Trial expiry reminders (issue 12, item 8; docs/licensing-reminders.md). The owner of an active trial is
// mailed 7 days and 1 day before it expires and once it has expired, each exactly once.
//
// Scheduled work keeps its state in the database (docs/engineering.md, planned parts: scheduled work) and
// runs only in the primary (docs/decisions/0022-one-process-model.md), started in server/main.ts.
//
// How: every run (each minute) lists the trials that may need a reminder and works out the one each is due
// for now: the latest stage it has reached. That is the catch-up rule: a trial first seen after it expired
// gets only the `expired` mail, never a stale "7 days left". For each, a write transaction claims the
// (license, kind) row of license_reminders: inserting it the first time (the primary key lets one insert
// ever succeed), or re-claiming an unsent row whose retry is due. Then the mail goes out, and the row is
// marked sent together with a `reminder_sent` license event. A sent row is never claimed again, so a
// restart, or a second scheduler on the same database, sends nothing twice.
//
// The claim time (created_at) and attempts are the retry schedule, in the database so it survives a
// restart: an unsent row is claimable again REMINDER_RETRY.delay(attempts) after its last claim, which is
// also longer than a send can take, so a claim in flight is never taken over. A crash between the mail
// server's "250 OK" and the sent mark is the one way to send twice, as for mailings
// (server/features/mailings/job.ts; docs/decisions/0011-admin-console.md): the row is retried after the
// delay.
//
// Failures (classified like mailings): the mail server unreachable gives the attempt back and pauses the
// scheduler with backoff, however long the outage; an answered error counts an attempt and is retried later;
// a recipient refused for good is given up at once. After REMINDER_RETRY.maxAttempts the row is given up.
//
// An admin who extends a trial past a reminder already sent (its current stage is now earlier than a
// reminder on record) starts its reminders over for the new expiry.
//
// The key travels only in the mail: no log line names it.
import type { AppContext } from '../../context.ts';
import { writeTransaction } from '../../db/client.ts';
import { classifySendError } from '../mailings/index.ts';
import { licenseReminderEmail } from './mails.ts';
import {
  deleteRemindersOfLicense,
  insertReminderClaim,
  listReminderCandidates,
  listRemindersOfLicense,
  markReminderSent,
  reclaimReminder,
  reminderRank,
  setReminderAttempts,
  type LicenseReminder,
  type ReminderCandidate,
  type ReminderKind,
} from './queries.ts';
import { startPeriodicJob } from '../../process/periodic-job.ts';
import { mailSendFailures } from '../../ops/metrics.ts';
import { announceExpiredLicenses } from '../licensing/index.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export const REMINDER_RETRY = {
  /** Also the shortest wait after a claim: longer than a send can take (10 s connect + 30 s socket). */
  baseMs: 5 * MINUTE_MS,
  maxMs: 6 * 60 * MINUTE_MS,
  /** Attempts the mail server answered with an error; outages do not count. */
  maxAttempts: 10,
  /** Wait after the last claim before an unsent row may be claimed again: 5, 10, 20 … minutes, at most 6 h. */
  delay(attempts: number): number {
    return Math.min(REMINDER_RETRY.baseMs * 2 ** Math.max(0, attempts - 1), REMINDER_RETRY.maxMs);
  },
} as const;

export const REMINDER_DEFAULTS = {
  /** How often the primary looks for due reminders. */
  intervalMs: MINUTE_MS,
  /**
   * A trial that expired longer ago than this gets no `expired` mail: after a long outage, or when reminders
   * are first switched on over old data, nobody is told about a trial that ended months ago.
   */
  expiredWindowMs: 30 * DAY_MS,
  /** Reminders looked at per batch; a run takes batches until none is due. */
  batchSize: 50,
} as const;

export interface ReminderRunSummary {
  sent: number;
  /** Failed sends that will be retried. */
  retried: number;
  /** Reminders given up in this run. */
  failed: number;
  /** True when the run stopped because the mail server was unreachable. */
  outage: boolean;
}

export interface ReminderScheduler {
  /** Sends every reminder due now; concurrent calls share one run. */
  runOnce(): Promise<ReminderRunSummary>;
  /** Stops the timer and lets a send in flight finish (and be marked sent); resolves when idle. */
  stop(): Promise<void>;
}

export interface ReminderSchedulerOptions {
  /** Pause between runs; 0 or less: no timer (tests drive runOnce themselves). */
  intervalMs: number;
  expiredWindowMs?: number;
  batchSize?: number;
}

export type ReminderDecision = { claim: false; reset: boolean } | { claim: 'insert'; reset: boolean } | { claim: 'retry'; row: LicenseReminder; reset: false };

/**
 * What to do about a license due for `kind`, given its reminder rows. Pure, so the rules are tested alone:
 * - a row of a later stage than `kind` means the expiry moved later since: forget them all and start over;
 * - no row for `kind`: claim it (insert);
 * - an unsent row for `kind`, not given up, whose retry delay since its last claim has passed: claim again;
 * - otherwise nothing (sent, given up, or a claim that may still be in flight).
 * Rows of earlier stages that were never sent are simply passed over: only the most relevant reminder goes out.
 */
export function decideReminder(kind: ReminderKind, rows: readonly LicenseReminder[], now: number): ReminderDecision {
  const reset = rows.some((row) => reminderRank(row.kind) > reminderRank(kind));
  const row = reset ? undefined : rows.find((candidate) => candidate.kind === kind);
  if (!row) return { claim: 'insert', reset };
  if (row.sent_at !== null || row.attempts >= REMINDER_RETRY.maxAttempts) return { claim: false, reset: false };
  if (Date.parse(row.created_at) + REMINDER_RETRY.delay(row.attempts) > now) return { claim: false, reset: false };
  return { claim: 'retry', row, reset: false };
}

export function startReminderScheduler(
  ctx: Pick<AppContext, 'config' | 'db' | 'log' | 'mailer' | 'now' | 'wake'>,
  options: ReminderSchedulerOptions,
): ReminderScheduler {
  const expiredWindowMs = options.expiredWindowMs ?? REMINDER_DEFAULTS.expiredWindowMs;
  const batchSize = options.batchSize ?? REMINDER_DEFAULTS.batchSize;
  // In memory on purpose (as for mailings): after a restart the scheduler tries the mail server at once.
  let consecutiveOutages = 0;
  let pausedUntil = 0;

  /** Claims the reminder in one write transaction; the attempt number when this scheduler now owns the send. */
  function claim(candidate: ReminderCandidate, now: number): number | null {
    const claimedAtIso = new Date(now).toISOString();
    return writeTransaction(ctx.db, () => {
      const decision = decideReminder(candidate.kind, listRemindersOfLicense(ctx.db, candidate.license_id), now);
      if (decision.reset) {
        deleteRemindersOfLicense(ctx.db, candidate.license_id);
        ctx.log.info(`license reminders: license ${candidate.license_id} was extended, its reminders start over`);
      }
      if (decision.claim === 'insert') return insertReminderClaim(ctx.db, { license_id: candidate.license_id, kind: candidate.kind, claimedAtIso }) ? 1 : null;
      if (decision.claim === 'retry') return reclaimReminder(ctx.db, decision.row, claimedAtIso) ? decision.row.attempts + 1 : null;
      return null;
    });
  }

  /** 'stop' when the mail server is unreachable: nothing else in this run can be sent either. */
  async function send(candidate: ReminderCandidate, summary: ReminderRunSummary): Promise<'continue' | 'stop'> {
    const now = ctx.now();
    const attempt = claim(candidate, now);
    if (attempt === null) return 'continue';
    const label = `license ${candidate.license_id} (${candidate.kind})`;
    const content = licenseReminderEmail(ctx.config, {
      kind: candidate.kind,
      name: candidate.name,
      key: candidate.key,
      expireDate: candidate.expire_date,
      now,
    });
    try {
      await ctx.mailer.send({ to: candidate.email, ...content });
    } catch (error) {
      mailSendFailures.inc({ kind: 'reminder' });
      const kind = classifySendError(error);
      // The error's code and the server's answer only: never the message, which carries the key.
      const reason = describeError(error);
      if (kind === 'unreachable') {
        setReminderAttempts(ctx.db, candidate, attempt - 1);
        consecutiveOutages += 1;
        const pause = Math.min(REMINDER_RETRY.baseMs * 2 ** (consecutiveOutages - 1), REMINDER_RETRY.maxMs);
        pausedUntil = ctx.now() + pause;
        ctx.log.warn(`license reminders: mail server unavailable, pausing ${pause / 1000} s: ${reason}`);
        summary.outage = true;
        return 'stop';
      }
      const attempts = kind === 'rejected' ? REMINDER_RETRY.maxAttempts : attempt;
      setReminderAttempts(ctx.db, candidate, attempts);
      if (attempts >= REMINDER_RETRY.maxAttempts) {
        summary.failed += 1;
        ctx.log.error(`license reminders: reminder for ${label} given up after ${attempt} attempt${attempt === 1 ? '' : 's'}: ${reason}`);
      } else {
        summary.retried += 1;
        ctx.log.warn(`license reminders: reminder for ${label} failed, retried in ${REMINDER_RETRY.delay(attempts) / 60_000} min: ${reason}`);
      }
      return 'continue';
    }
    consecutiveOutages = 0;
    const sentAtIso = new Date(ctx.now()).toISOString();
    writeTransaction(ctx.db, () =>
      markReminderSent(ctx.db, { license_id: candidate.license_id, kind: candidate.kind, expire_date: candidate.expire_date, sentAtIso }),
    );
    summary.sent += 1;
    return 'continue';
  }

  async function drain(): Promise<ReminderRunSummary> {
    const summary: ReminderRunSummary = { sent: 0, retried: 0, failed: 0, outage: false };
    // Every license whose end has passed gets its `expired` history line and license.expired webhook
    // (docs/integrations.md#events), trials and others alike, whatever the mail server does.
    announceExpiredLicenses(ctx);
    // Each license is looked at once per run, so a batch of reminders that cannot be claimed yet (retries
    // waiting for their delay) cannot keep the run going.
    const seen = new Set<string>();
    outer: while (!stopping() && ctx.now() >= pausedUntil) {
      const now = ctx.now();
      const iso = (ms: number) => new Date(ms).toISOString();
      const batch = listReminderCandidates(ctx.db, {
        nowIso: iso(now),
        within1DayIso: iso(now + DAY_MS),
        within7DaysIso: iso(now + 7 * DAY_MS),
        expiredSinceIso: iso(now - expiredWindowMs),
        maxAttempts: REMINDER_RETRY.maxAttempts,
        limit: batchSize + seen.size,
      }).filter((candidate) => !seen.has(`${candidate.license_id}:${candidate.kind}`));
      if (batch.length === 0) break;
      for (const candidate of batch) {
        if (stopping()) break outer;
        seen.add(`${candidate.license_id}:${candidate.kind}`);
        if ((await send(candidate, summary)) === 'stop') break outer;
      }
    }
    if (summary.sent + summary.failed > 0) ctx.log.info(`license reminders: ${summary.sent} sent, ${summary.failed} given up, ${summary.retried} to retry`);
    return summary;
  }

  const job = startPeriodicJob({ intervalMs: options.intervalMs, log: ctx.log, label: 'license reminders', run: drain });
  const stopping = () => job.isStopping();
  return { runOnce: job.runOnce, stop: job.stop };
}

/** The fields nodemailer puts on its errors, shortened: what an operator needs, nothing of the message. */
function describeError(error: unknown): string {
  const { code, responseCode, response } = (error ?? {}) as { code?: unknown; responseCode?: unknown; response?: unknown };
  const parts = [
    typeof code === 'string' ? code : '',
    typeof responseCode === 'number' ? String(responseCode) : '',
    typeof response === 'string' ? response : '',
  ].filter(Boolean);
  const text = parts.length > 0 ? parts.join(' ') : error instanceof Error ? error.name : 'unknown error';
  return text.length > 300 ? `${text.slice(0, 297)}...` : text;
}
