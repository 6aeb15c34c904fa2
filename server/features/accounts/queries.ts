// Password-reset tokens (server/features/accounts/routes.ts): one row per user holding the SHA-256 of the
// token mailed to them, so a database leak cannot be turned into reset links.
import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passwordResetTokens } from '../../db/schema.ts';

export type PasswordResetToken = typeof passwordResetTokens.$inferSelect;

/** Stores the user's token, replacing any earlier one: the older link stops working at once. */
export function replacePasswordResetToken(db: Db, token: { userId: number; tokenHash: string; expiresAt: number; createdAtIso: string }): void {
  const row = { token_hash: token.tokenHash, expires_at: token.expiresAt, created_at: token.createdAtIso };
  db.insert(passwordResetTokens)
    .values({ user_id: token.userId, ...row })
    .onConflictDoUpdate({ target: passwordResetTokens.user_id, set: row })
    .run();
}

export function getPasswordResetToken(db: Db, userId: number): PasswordResetToken | undefined {
  return db.select().from(passwordResetTokens).where(eq(passwordResetTokens.user_id, userId)).get();
}

/**
 * Deletes the token if it is still the one given and still live; true when it was. The delete is the
 * check, so two requests racing with one token cannot both use it.
 */
export function consumePasswordResetToken(db: Db, userId: number, tokenHash: string, now: number): boolean {
  return (
    db
      .delete(passwordResetTokens)
      .where(and(eq(passwordResetTokens.user_id, userId), eq(passwordResetTokens.token_hash, tokenHash), gt(passwordResetTokens.expires_at, now)))
      .run().changes === 1
  );
}

export function deletePasswordResetToken(db: Db, userId: number): void {
  db.delete(passwordResetTokens).where(eq(passwordResetTokens.user_id, userId)).run();
}
