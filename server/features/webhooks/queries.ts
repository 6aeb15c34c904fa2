// Named queries of the webhooks feature (docs/integrations.md): endpoints, and the deliveries the job claims,
// sends and marks. A claim is a lease (claimed_until): a process killed mid-send leaves the row to be sent
// again when the lease ends, which is what "at least once" costs.
import { and, asc, desc, eq, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { webhookDeliveries, webhookEndpoints, type WebhookDelivery, type WebhookEndpoint } from '../../db/schema.ts';

export interface EndpointInput {
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
}

export function listEndpoints(db: Db): WebhookEndpoint[] {
  return db.select().from(webhookEndpoints).orderBy(asc(webhookEndpoints.id)).all();
}

export function getEndpoint(db: Db, id: number): WebhookEndpoint | undefined {
  return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).get();
}

/** Inserts with a placeholder secret: the caller encrypts the real one with the new id as context. */
export function insertEndpoint(db: Db, input: EndpointInput, atIso: string): WebhookEndpoint {
  return db
    .insert(webhookEndpoints)
    .values({
      url: input.url,
      description: input.description,
      events: JSON.stringify(input.events),
      enabled: input.enabled ? 1 : 0,
      secret: '',
      created_at: atIso,
      updated_at: atIso,
    })
    .returning()
    .get();
}

export function setEndpointSecret(db: Db, id: number, encrypted: string): void {
  db.update(webhookEndpoints).set({ secret: encrypted }).where(eq(webhookEndpoints.id, id)).run();
}

export function updateEndpoint(db: Db, id: number, input: Partial<EndpointInput>, atIso: string): WebhookEndpoint | undefined {
  const changes: Partial<typeof webhookEndpoints.$inferInsert> = { updated_at: atIso };
  if (input.url !== undefined) changes.url = input.url;
  if (input.description !== undefined) changes.description = input.description;
  if (input.events !== undefined) changes.events = JSON.stringify(input.events);
  if (input.enabled !== undefined) {
    changes.enabled = input.enabled ? 1 : 0;
    // Turned on again by an admin: its failures so far no longer count towards disabling it.
    if (input.enabled) Object.assign(changes, { failing_since: null, disabled_reason: null });
  }
  return db.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, id)).returning().get();
}

export function deleteEndpoint(db: Db, id: number): boolean {
  return db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).run().changes > 0;
}

/** Enabled endpoints subscribed to `event`. */
export function listSubscribedEndpointIds(db: Db, event: string): number[] {
  return db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.enabled, 1), sql`exists (select 1 from json_each(${webhookEndpoints.events}) where value = ${event})`))
    .all()
    .map((row) => row.id);
}

export function insertDeliveries(
  db: Db,
  rows: { id: string; endpoint_id: number; event: string; payload: string; next_attempt_at: number | null }[],
  atIso: string,
): void {
  if (rows.length > 0)
    db.insert(webhookDeliveries)
      .values(rows.map((row) => ({ ...row, created_at: atIso })))
      .run();
}

export function getDelivery(db: Db, endpointId: number, id: string): WebhookDelivery | undefined {
  return db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpoint_id, endpointId), eq(webhookDeliveries.id, id)))
    .get();
}

export function listDeliveries(db: Db, endpointId: number, limit: number): WebhookDelivery[] {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpoint_id, endpointId))
    .orderBy(desc(webhookDeliveries.created_at), desc(webhookDeliveries.id))
    .limit(limit)
    .all();
}

export type ClaimedDelivery = WebhookDelivery & { url: string; secret: string };

/**
 * Claims up to `limit` due deliveries of enabled endpoints (oldest first) until `leaseUntil`. Run inside a
 * write transaction so two claims never take the same row.
 */
export function claimDueDeliveries(db: Db, options: { now: number; limit: number; leaseUntil: number }): ClaimedDelivery[] {
  const due = db
    .select({ delivery: webhookDeliveries, url: webhookEndpoints.url, secret: webhookEndpoints.secret })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpoint_id))
    .where(
      and(
        eq(webhookEndpoints.enabled, 1),
        isNotNull(webhookDeliveries.next_attempt_at),
        lte(webhookDeliveries.next_attempt_at, options.now),
        or(isNull(webhookDeliveries.claimed_until), lte(webhookDeliveries.claimed_until, options.now)),
      ),
    )
    .orderBy(asc(webhookDeliveries.next_attempt_at), asc(webhookDeliveries.created_at))
    .limit(options.limit)
    .all();
  for (const row of due) {
    db.update(webhookDeliveries).set({ claimed_until: options.leaseUntil }).where(eq(webhookDeliveries.id, row.delivery.id)).run();
  }
  return due.map((row) => ({ ...row.delivery, url: row.url, secret: row.secret }));
}

/** A new primary starts with no send in flight: every claim left by a process that died is void. */
export function releaseAllClaims(db: Db): void {
  db.update(webhookDeliveries).set({ claimed_until: null }).where(isNotNull(webhookDeliveries.claimed_until)).run();
}

export function markDelivered(db: Db, id: string, outcome: { status: number; atIso: string }): void {
  db.update(webhookDeliveries)
    .set({
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      last_status: outcome.status,
      last_error: null,
      delivered_at: outcome.atIso,
      next_attempt_at: null,
      claimed_until: null,
    })
    .where(eq(webhookDeliveries.id, id))
    .run();
}

/** A failed attempt: another at `retryAt`, or none (`retryAt` null: given up). */
export function markAttemptFailed(db: Db, id: string, outcome: { status: number | null; error: string; retryAt: number | null; atIso: string }): void {
  db.update(webhookDeliveries)
    .set({
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      last_status: outcome.status,
      last_error: outcome.error,
      next_attempt_at: outcome.retryAt,
      failed_at: outcome.retryAt === null ? outcome.atIso : null,
      claimed_until: null,
    })
    .where(eq(webhookDeliveries.id, id))
    .run();
}

/** Sends it again as soon as the job runs (an admin's Retry), whether it failed, gave up or was delivered. */
export function scheduleRetryNow(db: Db, id: string, now: number): void {
  db.update(webhookDeliveries)
    .set({ next_attempt_at: now, failed_at: null, delivered_at: null, claimed_until: null })
    .where(eq(webhookDeliveries.id, id))
    .run();
}

export function noteEndpointFailing(db: Db, id: number, sinceIso: string): void {
  db.update(webhookEndpoints)
    .set({ failing_since: sinceIso })
    .where(and(eq(webhookEndpoints.id, id), isNull(webhookEndpoints.failing_since)))
    .run();
}

export function noteEndpointHealthy(db: Db, id: number): void {
  db.update(webhookEndpoints)
    .set({ failing_since: null })
    .where(and(eq(webhookEndpoints.id, id), isNotNull(webhookEndpoints.failing_since)))
    .run();
}

/** Disables the endpoint unless it already was; answers whether this call disabled it. */
export function disableFailingEndpoint(db: Db, id: number, reason: string, atIso: string): boolean {
  return (
    db
      .update(webhookEndpoints)
      .set({ enabled: 0, disabled_reason: reason, updated_at: atIso })
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.enabled, 1)))
      .run().changes > 0
  );
}
