// The tables of the integrations (docs/integrations.md): webhook endpoints and their deliveries (the outbox),
// API tokens for machines, and the answers kept for Idempotency-Key. Kept beside the core
// tables (schema-core.ts), which read as the data model of docs/product/data-model.md; schema.ts exports all.
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './schema-core.ts';

const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export const webhookEndpoints = sqliteTable('webhook_endpoints', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  url: text('url').notNull(),
  description: text('description').notNull().default(''),
  /** JSON array of event types (docs/integrations.md#events). */
  events: text('events').notNull(),
  enabled: integer('enabled').notNull().default(1),
  /** The signing secret `whsec_…`, encrypted at rest (server/auth/secret-box.ts) with the endpoint's id as context. */
  secret: text('secret').notNull(),
  /** When the oldest delivery still failing first failed: three days of it disable the endpoint. */
  failing_since: text('failing_since'),
  /** Why the endpoint was disabled by the delivery job (null when an admin disabled it or it is enabled). */
  disabled_reason: text('disabled_reason'),
  created_at: text('created_at').notNull().default(nowIso),
  updated_at: text('updated_at').notNull().default(nowIso),
});

/**
 * One row per event and endpoint, written in the same transaction as the change that causes the event: the
 * outbox the primary's delivery job empties (docs/integrations.md#delivery). `payload` is the exact body sent.
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    /** The Standard Webhooks message id (`webhook-id`), `msg_…`: the same on every attempt, so receivers can deduplicate. */
    id: text('id').primaryKey(),
    endpoint_id: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    payload: text('payload').notNull(),
    attempts: integer('attempts').notNull().default(0),
    last_status: integer('last_status'),
    last_error: text('last_error'),
    created_at: text('created_at').notNull().default(nowIso),
    /** Milliseconds since the epoch; null once delivered or given up. */
    next_attempt_at: integer('next_attempt_at'),
    /** A claim by the delivery job until this time (ms): a process killed mid-send leaves it to expire. */
    claimed_until: integer('claimed_until'),
    delivered_at: text('delivered_at'),
    failed_at: text('failed_at'),
  },
  (table) => [index('webhook_deliveries_due_idx').on(table.next_attempt_at), index('webhook_deliveries_endpoint_idx').on(table.endpoint_id, table.created_at)],
);

export const apiTokens = sqliteTable('api_tokens', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  /** JSON array of scopes (docs/integrations.md#api-tokens). */
  scopes: text('scopes').notNull(),
  /** SHA-256 of the token (base64url): the token itself is shown once and never stored. */
  token_hash: text('token_hash').notNull().unique(),
  created_by: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  created_at: text('created_at').notNull().default(nowIso),
  expires_at: text('expires_at'),
  last_used_at: text('last_used_at'),
  revoked_at: text('revoked_at'),
});

/** The first answer to a POST with an Idempotency-Key, per token, kept 24 hours. */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    token_id: integer('token_id')
      .notNull()
      .references(() => apiTokens.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of method, path and body: the same key with another request is refused. */
    request_hash: text('request_hash').notNull(),
    status: integer('status').notNull(),
    body: text('body').notNull(),
    /** Milliseconds since the epoch. */
    created_at: integer('created_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.token_id, table.key] }), index('idempotency_keys_created_idx').on(table.created_at)],
);

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type ApiToken = typeof apiTokens.$inferSelect;
