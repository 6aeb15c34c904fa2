// Rate-limit counters shared by every serving process (server/auth/rate-limit.ts). Statements are
// prepared once per connection: the login path asks on every attempt.
import type Database from 'better-sqlite3';
import type { Db } from '../client.ts';

export interface RateLimitRow {
  hits: number[];
}

interface Statements {
  select: Database.Statement<[string, string, number], { hits: string }>;
  upsert: Database.Statement<[string, string, string, number]>;
  remove: Database.Statement<[string, string]>;
  removeExpired: Database.Statement<[number]>;
}

const prepared = new WeakMap<Db, Statements>();

function statements(db: Db): Statements {
  let found = prepared.get(db);
  if (!found) {
    const sqlite = db.$client;
    found = {
      select: sqlite.prepare('SELECT hits FROM rate_limit_hits WHERE limiter = ? AND key = ? AND expires_at > ?'),
      upsert: sqlite.prepare(
        'INSERT INTO rate_limit_hits (limiter, key, hits, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (limiter, key) DO UPDATE SET hits = excluded.hits, expires_at = excluded.expires_at',
      ),
      remove: sqlite.prepare('DELETE FROM rate_limit_hits WHERE limiter = ? AND key = ?'),
      removeExpired: sqlite.prepare('DELETE FROM rate_limit_hits WHERE expires_at <= ?'),
    };
    prepared.set(db, found);
  }
  return found;
}

/** The hit times of a key still inside some window at `now` (a row past its expiry counts as none). */
export function getRateLimitHits(db: Db, limiter: string, key: string, now: number): number[] {
  const row = statements(db).select.get(limiter, key, now);
  if (!row) return [];
  const parsed: unknown = JSON.parse(row.hits);
  return Array.isArray(parsed) ? parsed.filter((value): value is number => typeof value === 'number') : [];
}

export function putRateLimitHits(db: Db, limiter: string, key: string, hits: number[], expiresAt: number): void {
  statements(db).upsert.run(limiter, key, JSON.stringify(hits), expiresAt);
}

export function deleteRateLimitHits(db: Db, limiter: string, key: string): void {
  statements(db).remove.run(limiter, key);
}

/** Drops every row whose window has passed, for all limiters; returns how many. */
export function deleteExpiredRateLimitHits(db: Db, now: number): number {
  return statements(db).removeExpired.run(now).changes;
}
