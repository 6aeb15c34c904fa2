// The primary's webhook delivery job (docs/integrations.md#delivery): the same periodic-job shape as mailings and
// reminders. It sends due deliveries at least once, retries failures with growing delays (attempts at about
// 0 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, then daily: seven attempts within the first 5 hours,
// the eighth after 11), gives a delivery up after three days, and disables an endpoint whose deliveries have
// failed for three days, mailing the admins. Everything it knows is in the database, so a restart (or a kill -9)
// loses nothing: a claim left by a dead process is void when the next primary starts.
import type { AppContext } from '../../context.ts';
import { writeTransaction } from '../../db/client.ts';
import { decryptSecret } from '../../auth/secret-box.ts';
import { notifyAdmins } from '../../mail/notify-admins.ts';
import { webhookDisabledEmail } from '../../mail/templates.ts';
import { startPeriodicJob, type PeriodicJob } from '../../process/periodic-job.ts';
import {
  claimDueDeliveries,
  disableFailingEndpoint,
  getEndpoint,
  markAttemptFailed,
  markDelivered,
  noteEndpointFailing,
  noteEndpointHealthy,
  releaseAllClaims,
  type ClaimedDelivery,
} from './queries.ts';
import { postWebhook, WEBHOOK_TIMEOUT_MS, type AttemptResult } from './send.ts';
import { signatureHeaders } from './signing.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The wait after the n-th failed attempt (the last repeats). */
export const WEBHOOK_RETRY_DELAYS_MS = [30_000, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, 24 * HOUR] as const;
/** A delivery still failing this long after its event is given up; an endpoint failing this long is disabled. */
export const WEBHOOK_GIVE_UP_MS = 3 * 24 * HOUR;
export const WEBHOOK_BATCH = 20;
/** Longer than one attempt can take, so a live sender never loses its claim. */
const LEASE_MS = WEBHOOK_TIMEOUT_MS * 3;

export function webhookRetryDelay(failedAttempts: number): number {
  return WEBHOOK_RETRY_DELAYS_MS[Math.min(failedAttempts, WEBHOOK_RETRY_DELAYS_MS.length) - 1] ?? WEBHOOK_RETRY_DELAYS_MS[0];
}

export interface WebhookRunSummary {
  delivered: number;
  failed: number;
  disabledEndpoints: number;
}

type JobContext = Pick<AppContext, 'db' | 'config' | 'log' | 'mailer' | 'now'>;

/** Decrypts an endpoint's stored secret (the endpoint id is the context it was encrypted with). */
export function endpointSecret(ctx: Pick<AppContext, 'config'>, endpointId: number, stored: string): string {
  return decryptSecret(ctx.config, stored, `webhook:${endpointId}`);
}

/** One signed attempt of a delivery: the job's sends and the Integrations screen's test ping alike. */
export async function attempt(
  ctx: Pick<AppContext, 'config' | 'now'>,
  delivery: Pick<ClaimedDelivery, 'id' | 'endpoint_id' | 'url' | 'secret' | 'payload'>,
): Promise<AttemptResult> {
  let headers: Record<string, string>;
  try {
    headers = signatureHeaders(endpointSecret(ctx, delivery.endpoint_id, delivery.secret), delivery.id, Math.floor(ctx.now() / 1000), delivery.payload);
  } catch {
    return { ok: false, status: null, error: 'The signing secret cannot be read (was the secrets key replaced?).' };
  }
  return postWebhook(delivery.url, headers, delivery.payload, { allowPrivate: ctx.config.webhooksAllowPrivate });
}

async function record(ctx: JobContext, delivery: ClaimedDelivery, result: AttemptResult): Promise<'delivered' | 'failed' | 'disabled'> {
  const now = ctx.now();
  const atIso = new Date(now).toISOString();
  if (result.ok) {
    writeTransaction(ctx.db, () => {
      markDelivered(ctx.db, delivery.id, { status: result.status, atIso });
      noteEndpointHealthy(ctx.db, delivery.endpoint_id);
    });
    return 'delivered';
  }
  const failedAttempts = delivery.attempts + 1;
  const givenUp = now - Date.parse(delivery.created_at) >= WEBHOOK_GIVE_UP_MS;
  const disabled = writeTransaction(ctx.db, () => {
    markAttemptFailed(ctx.db, delivery.id, {
      status: result.status,
      error: result.error,
      retryAt: givenUp ? null : now + webhookRetryDelay(failedAttempts),
      atIso,
    });
    noteEndpointFailing(ctx.db, delivery.endpoint_id, atIso);
    const endpoint = getEndpoint(ctx.db, delivery.endpoint_id);
    if (!endpoint?.failing_since || now - Date.parse(endpoint.failing_since) < WEBHOOK_GIVE_UP_MS) return null;
    return disableFailingEndpoint(ctx.db, endpoint.id, `Deliveries failed for three days; last error: ${result.error}`, atIso) ? endpoint : null;
  });
  if (disabled) {
    ctx.log.warn(`Webhook endpoint ${disabled.id} disabled after three days of failed deliveries`);
    await notifyAdmins(ctx, webhookDisabledEmail(ctx.config, { url: disabled.url, failingSince: disabled.failing_since ?? atIso, lastError: result.error }));
    return 'disabled';
  }
  return 'failed';
}

/** A run of the delivery job in progress: `claim()` takes newly due deliveries into its free places at once; never throws. */
export interface DeliveryRun {
  claim(): void;
}

/**
 * Sends every due delivery once: up to WEBHOOK_BATCH at a time, each place taken again as soon as its attempt
 * is recorded, so a receiver that is slow to answer (up to the 10-second limit) holds only its own place and
 * never the events behind it. `onStart` hands out the run, so that work queued while it runs (AppContext.wake)
 * is claimed by it at once rather than after it.
 */
export async function deliverDueWebhooks(
  ctx: JobContext,
  isStopping: () => boolean = () => false,
  onStart: (run: DeliveryRun | null) => void = () => {},
): Promise<WebhookRunSummary> {
  const summary: WebhookRunSummary = { delivered: 0, failed: 0, disabledEndpoints: 0 };
  const inFlight = new Set<Promise<void>>();
  const errors: unknown[] = [];
  let settled: () => void = () => {};

  const send = async (delivery: ClaimedDelivery): Promise<void> => {
    const outcome = await record(ctx, delivery, await attempt(ctx, delivery));
    if (outcome === 'delivered') summary.delivered += 1;
    else summary.failed += 1;
    if (outcome === 'disabled') summary.disabledEndpoints += 1;
  };

  /** A claim that fails (the database) ends the run once the attempts in flight are recorded. */
  function claimSafely(): void {
    try {
      claim();
    } catch (error) {
      errors.push(error);
    }
  }

  function claim(): void {
    if (isStopping() || errors.length > 0) return;
    const room = WEBHOOK_BATCH - inFlight.size;
    if (room <= 0) return;
    const now = ctx.now();
    const batch = writeTransaction(ctx.db, () => claimDueDeliveries(ctx.db, { now, limit: room, leaseUntil: now + LEASE_MS }));
    for (const delivery of batch) {
      const sending: Promise<void> = send(delivery)
        .catch((error: unknown) => void errors.push(error))
        .finally(() => {
          inFlight.delete(sending);
          claimSafely();
          if (inFlight.size === 0) settled();
        });
      inFlight.add(sending);
    }
  }

  onStart({ claim: claimSafely });
  try {
    claim();
    // Every place frees itself and claims again; the run ends when the last one finds nothing more to send.
    if (inFlight.size > 0) await new Promise<void>((resolve) => (settled = resolve));
  } finally {
    onStart(null);
  }
  // A failed write (the database, not a receiver) ends the run as before: the rest stays claimed until its lease ends.
  if (errors.length > 0) throw errors[0];
  return summary;
}

export function startWebhookDelivery(ctx: JobContext, options: { intervalMs: number }): PeriodicJob<WebhookRunSummary> {
  // This process is the primary (it holds the data directory's lock): no other sender is alive.
  releaseAllClaims(ctx.db);
  let running: DeliveryRun | null = null;
  const job: PeriodicJob<WebhookRunSummary> & { isStopping(): boolean } = startPeriodicJob({
    intervalMs: options.intervalMs,
    log: ctx.log,
    label: 'webhook delivery',
    run: (): Promise<WebhookRunSummary> =>
      deliverDueWebhooks(
        ctx,
        () => job.isStopping(),
        (run) => (running = run),
      ),
  });
  return {
    ...job,
    // Woken during a run: that run claims the new deliveries beside the attempts in flight.
    wake: () => (running ? running.claim() : job.wake()),
  };
}
