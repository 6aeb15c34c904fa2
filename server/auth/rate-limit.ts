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

/**
 * A limiter for high limits (the licensing API's hundreds of calls a minute per address): instead of the
 * time of every hit, it keeps two counters, this fixed window's and the previous one's, and weighs the
 * previous by how much of it still overlaps the sliding window (the estimate Cloudflare describes for its
 * rate limiting). Constant work and a row of three numbers per key, whatever the limit; the estimate
 * assumes the previous window's hits were spread evenly. Same interface, same shared table.
 */
export function createCountingRateLimiter(options: RateLimitOptions): RateLimiter {
  const { db, name, limit, windowMs, now } = options;
  let lastSweep = 0;

  /** [previous window's hits, this window's hits, start of this window] at `at`. */
  const counts = (key: string, at: number): [number, number, number] => {
    const windowStart = Math.floor(at / windowMs) * windowMs;
    const [storedStart = 0, storedPrevious = 0, storedCurrent = 0] = getRateLimitHits(db, name, key, at);
    if (storedStart === windowStart) return [storedPrevious, storedCurrent, windowStart];
    if (storedStart === windowStart - windowMs) return [storedCurrent, 0, windowStart];
    return [0, 0, windowStart];
  };

  const decide = (previous: number, current: number, windowStart: number, at: number): RateLimitDecision => {
    const overlap = 1 - (at - windowStart) / windowMs;
    // Room for one more hit: the estimate with it must not pass the limit. (A tiny tolerance, so the
    // moment Retry-After names is really free despite floating point.)
    const room = limit - 1 + 1e-9;
    const estimate = previous * overlap + current;
    if (estimate <= room) return { allowed: true, remaining: Math.max(0, Math.floor(limit - 1 - estimate)) };
    // When the estimate falls to that: later in this window as the previous one's weight shrinks, or in
    // the next one, where this window's hits are the previous ones.
    const freeAt =
      current <= limit - 1 && previous > 0
        ? windowStart + windowMs * (1 - (limit - 1 - current) / previous)
        : windowStart + windowMs + windowMs * (1 - (limit - 1) / Math.max(current, limit));
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freeAt - at) / 1000)) };
  };

  const record = (key: string, previous: number, current: number, windowStart: number, at: number) => {
    if (at - lastSweep >= SWEEP_EVERY_MS) {
      lastSweep = at;
      deleteExpiredRateLimitHits(db, at);
    }
    putRateLimitHits(db, name, key, [windowStart, previous, current + 1], windowStart + 2 * windowMs);
  };

  return {
    check(key) {
      const at = now();
      const [previous, current, windowStart] = counts(key, at);
      return decide(previous, current, windowStart, at);
    },
    hit(key) {
      writeTransaction(db, () => {
        const at = now();
        const [previous, current, windowStart] = counts(key, at);
        record(key, previous, current, windowStart, at);
      });
    },
    consume(key) {
      return writeTransaction(db, () => {
        const at = now();
        const [previous, current, windowStart] = counts(key, at);
        const decision = decide(previous, current, windowStart, at);
        if (decision.allowed) record(key, previous, current, windowStart, at);
        return decision;
      });
    },
    reset(key) {
      deleteRateLimitHits(db, name, key);
    },
  };
}
