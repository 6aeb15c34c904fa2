// A sliding-window limiter: at most `limit` hits per key within any `windowMs`. Used for logins,
// registrations, the contact form, verification and reset mails.
//
// The counters live in SQLite, not in memory, so every process that opens the database counts against
// the same limits. That matters once every serving process answers API requests
// (docs/decisions/0022-one-process-model.md): a limit that each process counted on its own would let a
// client multiply it by the number of processes just by opening new connections. Each decision is one
// short synchronous transaction, so two processes counting the same key cannot both take the last slot.
//
// Everything is in milliseconds from the injected clock; only retryAfterSeconds, meant for the
// Retry-After header, is in seconds (Lucia's token bucket mixed the two units: keep them apart and test
// with a fake clock, docs/engineering.md#known-traps).
import type { Db } from '../db/client.ts';
import { writeTransaction } from '../db/client.ts';
import { deleteExpiredRateLimitHits, deleteRateLimitHits, getRateLimitHits, putRateLimitHits } from '../db/queries/rate-limits.ts';

export interface RateLimitOptions {
  db: Db;
  /** Names the limiter's counters in the shared table; unique per limiter. */
  name: string;
  limit: number;
  windowMs: number;
  /** Milliseconds since the epoch (AppContext.now), so tests can move time. */
  now: () => number;
}

export type RateLimitDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Whether another hit would be allowed now; does not count one. */
  check(key: string): RateLimitDecision;
  /** Counts one hit (e.g. one failed login). */
  hit(key: string): void;
  /** check + hit when allowed, in one transaction: for throttles where every attempt counts. */
  consume(key: string): RateLimitDecision;
  /** Forgets the key (e.g. after a successful login). */
  reset(key: string): void;
}

/** Expired rows are swept at most this often per limiter, so a flood of distinct keys cannot grow the table for long. */
const SWEEP_EVERY_MS = 60_000;

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const { db, name, limit, windowMs, now } = options;
  let lastSweep = 0;

  const recentHits = (key: string, at: number): number[] => getRateLimitHits(db, name, key, at).filter((time) => at - time < windowMs);

  const decide = (recent: number[], at: number): RateLimitDecision => {
    if (recent.length < limit) return { allowed: true, remaining: limit - recent.length };
    // A slot frees when the oldest counted hit leaves the window.
    const oldest = recent[recent.length - limit] ?? at;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - at) / 1000)) };
  };

  const record = (key: string, recent: number[], at: number) => {
    if (at - lastSweep >= SWEEP_EVERY_MS) {
      lastSweep = at;
      deleteExpiredRateLimitHits(db, at);
    }
    putRateLimitHits(db, name, key, [...recent, at].slice(-limit), at + windowMs);
  };

  return {
    check(key) {
      const at = now();
      return decide(recentHits(key, at), at);
    },
    hit(key) {
      writeTransaction(db, () => {
        const at = now();
        record(key, recentHits(key, at), at);
      });
    },
    consume(key) {
      return writeTransaction(db, () => {
        const at = now();
        const recent = recentHits(key, at);
        const decision = decide(recent, at);
        if (!decision.allowed) return decision;
        record(key, recent, at);
        return { allowed: true, remaining: decision.remaining - 1 };
      });
    },
    reset(key) {
      deleteRateLimitHits(db, name, key);
    },
  };
}
