// What stands in front of every /api/v1/ route (docs/integrations.md#api-tokens): the token from
// `Authorization: Bearer` (cookies are ignored there: no session is read for that prefix), the limits per
// address and per token, the scope a route needs, and Idempotency-Key for POSTs.
import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppContext, AppEnv, ApiTokenCredential } from '../../context.ts';
import { machineApiGuard, machineError, type CredentialCheck } from '../../auth/machine-api.ts';
import { writeTransaction } from '../../db/client.ts';
import { parseJsonStrings } from '../../http/json.ts';
import {
  completeIdempotencyKey,
  deleteIdempotencyKeysBefore,
  getApiTokenByHash,
  getIdempotentAnswer,
  releaseIdempotencyKey,
  reserveIdempotencyKey,
  touchApiToken,
} from './queries.ts';
import { API_TOKEN_PREFIX, hashApiToken, type ApiScope } from './tokens.ts';

export const API_V1_PREFIX = '/api/v1';
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60_000;
/** last_used_at is written at most this often per token: a write per call would cost more than the call. */
const TOUCH_EVERY_MS = 60_000;

export const API_MESSAGES = {
  unauthenticated: 'An API token is required: send it as "Authorization: Bearer <token>".',
  invalidToken: 'The API token is not valid, has expired or was revoked.',
  scopeMissing: (scope: string) => `The API token lacks the scope ${scope}.`,
  idempotencyMismatch: 'This Idempotency-Key was used with a different request in the last 24 hours.',
  idempotencyInProgress: 'A request with this Idempotency-Key is still in progress.',
  idempotencyKeyInvalid: 'The Idempotency-Key must be 1 to 255 printable characters.',
} as const;

export function apiTokenGuard(ctx: AppContext): MiddlewareHandler<AppEnv> {
  const touched = new Map<number, number>();
  const refuse = (message: string): CredentialCheck<ApiTokenCredential> => ({
    ok: false,
    status: 401,
    code: 'UNAUTHENTICATED',
    message,
    headers: { 'WWW-Authenticate': 'Bearer' },
  });
  return machineApiGuard<ApiTokenCredential>(ctx, {
    name: 'api-v1',
    perAddressPerMinute: ctx.config.apiRequestsPerMinute,
    perCredentialPerMinute: ctx.config.apiTokenRequestsPerMinute,
    authenticate: (c) => {
      const header = c.req.header('Authorization') ?? '';
      const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
      if (!match?.[1]) return refuse(API_MESSAGES.unauthenticated);
      const token = match[1];
      const row = token.startsWith(API_TOKEN_PREFIX) ? getApiTokenByHash(ctx.db, hashApiToken(token)) : undefined;
      const now = ctx.now();
      if (!row || row.revoked_at !== null || (row.expires_at !== null && Date.parse(row.expires_at) <= now)) return refuse(API_MESSAGES.invalidToken);
      if (now - (touched.get(row.id) ?? 0) >= TOUCH_EVERY_MS) {
        touched.set(row.id, now);
        touchApiToken(ctx.db, row.id, new Date(now).toISOString());
      }
      const scopes = parseJsonStrings(row.scopes);
      return { ok: true, credential: { id: row.id, name: row.name, scopes, createdBy: row.created_by }, bucket: `token:${row.id}` };
    },
    store: (c, credential) => c.set('apiToken', credential),
  });
}

export function tokenOf(c: Context<AppEnv>): ApiTokenCredential {
  const token = c.get('apiToken');
  if (!token) throw new Error('an /api/v1/ route ran without the token guard');
  return token;
}

export function requireScope(scope: ApiScope): MiddlewareHandler<AppEnv> {
  return createMiddleware<AppEnv>(async (c, next) => {
    if (!tokenOf(c).scopes.includes(scope)) return machineError(c, 403, 'SCOPE_MISSING', API_MESSAGES.scopeMissing(scope), { scope });
    await next();
  });
}

/**
 * Idempotency-Key (docs/integrations.md#idempotency): the same key and the same request within 24 hours
 * answer the first answer again and create nothing; the same key with another request answers 422. A
 * request that failed with a server error is not kept, so it can be tried again with the same key.
 */
export function idempotent(ctx: Pick<AppContext, 'db' | 'now'>): MiddlewareHandler<AppEnv> {
  let lastSweep = 0;
  return createMiddleware<AppEnv>(async (c, next) => {
    const key = c.req.header('Idempotency-Key');
    if (key === undefined) return next();
    if (!/^[\x21-\x7e]{1,255}$/.test(key))
      return machineError(c, 422, 'INVALID_REQUEST', API_MESSAGES.idempotencyKeyInvalid, {
        errors: { 'Idempotency-Key': [API_MESSAGES.idempotencyKeyInvalid] },
      });
    const tokenId = tokenOf(c).id;
    const body = await c.req.raw.clone().text();
    const requestHash = createHash('sha256').update(`${c.req.method} ${c.req.path}\n${body}`).digest('base64url');
    const now = ctx.now();
    if (now - lastSweep > 60_000) {
      lastSweep = now;
      deleteIdempotencyKeysBefore(ctx.db, now - IDEMPOTENCY_WINDOW_MS);
    }
    const decision = writeTransaction(ctx.db, () => {
      const stored = getIdempotentAnswer(ctx.db, tokenId, key);
      if (stored && now - stored.created_at < IDEMPOTENCY_WINDOW_MS) return { kind: 'stored' as const, stored };
      if (stored) releaseIdempotencyKey(ctx.db, tokenId, key);
      reserveIdempotencyKey(ctx.db, tokenId, key, requestHash, now);
      return { kind: 'new' as const };
    });
    if (decision.kind === 'stored') {
      const { stored } = decision;
      if (stored.request_hash !== requestHash) return machineError(c, 422, 'IDEMPOTENCY_KEY_REUSED', API_MESSAGES.idempotencyMismatch);
      if (stored.status === 0) return machineError(c, 409, 'IDEMPOTENCY_IN_PROGRESS', API_MESSAGES.idempotencyInProgress);
      c.header('Idempotent-Replayed', 'true');
      return c.body(stored.body, stored.status as ContentfulStatusCode, { 'Content-Type': 'application/json; charset=UTF-8' });
    }
    try {
      await next();
    } catch (error) {
      releaseIdempotencyKey(ctx.db, tokenId, key);
      throw error;
    }
    const status = c.res.status;
    if (status >= 500) releaseIdempotencyKey(ctx.db, tokenId, key);
    else completeIdempotencyKey(ctx.db, tokenId, key, { status, body: await c.res.clone().text() });
  });
}
