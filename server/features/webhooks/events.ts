// The events a webhook endpoint may subscribe to (docs/integrations.md#events), and recording one: a delivery
// row per subscribed, enabled endpoint, written by the caller inside the transaction of the change itself, so
// an event exists exactly when its change was committed (the outbox pattern; the job sends them later).
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { insertDeliveries, listSubscribedEndpointIds } from './queries.ts';

export { WEBHOOK_EVENTS, type WebhookEvent } from '../../../common/integrations.ts';
import type { WebhookEvent } from '../../../common/integrations.ts';

/** The test event of POST /api/admin/webhooks/{id}/test: only ever sent to the endpoint asked for. */
export const PING_EVENT = 'ping';

export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/** The body every endpoint receives (Standard Webhooks' recommended shape): `{ type, timestamp, data }`. */
export function webhookBody(type: string, data: unknown, at: number): string {
  return JSON.stringify({ type, timestamp: new Date(at).toISOString(), data });
}

/**
 * Queues `type` with `data` for every enabled endpoint subscribed to it. Call it inside the write transaction
 * of the change (synchronous); `data` is the object the API answers for that thing, never a secret.
 * Wakes the delivery job, which looks once the transaction has ended (AppContext.wake), so a receiver hears
 * of a change in milliseconds rather than at the job's next tick. Answers how many deliveries were queued.
 */
export function recordWebhookEvent(ctx: Pick<AppContext, 'db' | 'wake'>, type: WebhookEvent, data: unknown, at: number): number {
  const { db } = ctx;
  const endpoints = listSubscribedEndpointIds(db, type);
  if (endpoints.length === 0) return 0;
  const payload = webhookBody(type, data, at);
  insertDeliveries(
    db,
    endpoints.map((endpointId) => ({ id: newMessageId(), endpoint_id: endpointId, event: type, payload, next_attempt_at: at })),
    new Date(at).toISOString(),
  );
  ctx.wake('webhooks');
  return endpoints.length;
}
