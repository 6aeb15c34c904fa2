// Named queries of API tokens and of the answers kept for Idempotency-Key (docs/integrations.md#api-tokens).
import { and, asc, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apiTokens, idempotencyKeys, type ApiToken } from '../../db/schema.ts';

export function insertApiToken(
  db: Db,
  token: { name: string; scopes: string[]; token_hash: string; created_by: number | null; created_at: string; expires_at: string | null },
): ApiToken {
  return db
    .insert(apiTokens)
    .values({ ...token, scopes: JSON.stringify(token.scopes) })
    .returning()
    .get();
}

export function listApiTokens(db: Db): ApiToken[] {
  return db.select().from(apiTokens).orderBy(asc(apiTokens.id)).all();
}

export function getApiTokenByHash(db: Db, hash: string): ApiToken | undefined {
  return db.select().from(apiTokens).where(eq(apiTokens.token_hash, hash)).get();
}

/** Revoked tokens stay listed (with their revocation time) so the admins see what a log line's id was. */
export function revokeApiToken(db: Db, id: number, atIso: string): boolean {
  return (
    db
      .update(apiTokens)
      .set({ revoked_at: atIso })
      .where(and(eq(apiTokens.id, id)))
      .run().changes > 0
  );
}

export function getApiToken(db: Db, id: number): ApiToken | undefined {
  return db.select().from(apiTokens).where(eq(apiTokens.id, id)).get();
}

export function touchApiToken(db: Db, id: number, atIso: string): void {
  db.update(apiTokens).set({ last_used_at: atIso }).where(eq(apiTokens.id, id)).run();
}

export interface StoredAnswer {
  request_hash: string;
  status: number;
  body: string;
  created_at: number;
}

export function getIdempotentAnswer(db: Db, tokenId: number, key: string): StoredAnswer | undefined {
  return db
    .select({ request_hash: idempotencyKeys.request_hash, status: idempotencyKeys.status, body: idempotencyKeys.body, created_at: idempotencyKeys.created_at })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.token_id, tokenId), eq(idempotencyKeys.key, key)))
    .get();
}

/** Claims the key for a request in progress (status 0); false when another request holds it already. */
export function reserveIdempotencyKey(db: Db, tokenId: number, key: string, requestHash: string, now: number): boolean {
  return (
    db.insert(idempotencyKeys).values({ token_id: tokenId, key, request_hash: requestHash, status: 0, body: '', created_at: now }).onConflictDoNothing().run()
      .changes > 0
  );
}

export function completeIdempotencyKey(db: Db, tokenId: number, key: string, answer: { status: number; body: string }): void {
  db.update(idempotencyKeys)
    .set(answer)
    .where(and(eq(idempotencyKeys.token_id, tokenId), eq(idempotencyKeys.key, key)))
    .run();
}

export function releaseIdempotencyKey(db: Db, tokenId: number, key: string): void {
  db.delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.token_id, tokenId), eq(idempotencyKeys.key, key)))
    .run();
}

export function deleteIdempotencyKeysBefore(db: Db, before: number): void {
  db.delete(idempotencyKeys).where(lt(idempotencyKeys.created_at, before)).run();
}
