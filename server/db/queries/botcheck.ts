// Spent bot-check challenges (server/auth/botcheck.ts): each challenge nonce may be spent once.
import { eq, lt } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { botcheckSpent } from '../schema.ts';

export function isBotChallengeSpent(db: Db, nonce: string): boolean {
  return db.select({ nonce: botcheckSpent.nonce }).from(botcheckSpent).where(eq(botcheckSpent.nonce, nonce)).get() !== undefined;
}

/**
 * Marks a challenge as spent; false when it already was. The insert is the check (primary key, conflict
 * ignored), so two requests racing with one token cannot both win. Rows of expired challenges are
 * dropped on the way: expiry alone refuses those, and the table stays as small as the traffic of the
 * last challenge lifetime.
 */
export function spendBotChallenge(db: Db, nonce: string, expiresAt: number, now: number): boolean {
  db.delete(botcheckSpent).where(lt(botcheckSpent.expires_at, now)).run();
  return db.insert(botcheckSpent).values({ nonce, expires_at: expiresAt }).onConflictDoNothing().run().changes === 1;
}
