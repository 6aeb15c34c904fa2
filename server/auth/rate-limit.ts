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
 * Whether one more hit fits, for a sliding window estimated from two fixed windows' counters: the
 * previous window's hits weighed by how much of it still overlaps the sliding window, plus this window's
 * (the estimate Cloudflare describes for its rate limiting; it assumes the previous window's hits were
 * spread evenly).
 */
function slidingDecision(limit: number, windowMs: number, previous: number, current: number, windowStart: number, at: number): RateLimitDecision {
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
}

export interface CountingRateLimitOptions extends RateLimitOptions {
  /**
   * 0 (the default): every hit is one transaction, exact across processes. More: each process counts in
   * memory and adds its hits to the shared row at least this often, and whenever it has counted a
   * twentieth of the limit; every decision still includes what all processes had shared at the last
   * sync. For APIs called thousands of times a second (the licensing API's validate), where a write
   * transaction per call would cost more than the call: other processes can overshoot a limit by at most
   * what they counted since their last sync.
   */
  syncEveryMs?: number;
}

/**
 * A limiter for high limits (the licensing API's hundreds of calls a minute per address): instead of the
 * time of every hit it keeps, per key, a row of three numbers in the shared table (this window's start,
 * the previous window's hits, this window's hits): constant work whatever the limit.
 */
export function createCountingRateLimiter(options: CountingRateLimitOptions): RateLimiter {
  const { db, name, limit, windowMs, now, syncEveryMs = 0 } = options;
  let lastSweep = 0;
  const windowOf = (at: number) => Math.floor(at / windowMs) * windowMs;
  const decide = (previous: number, current: number, windowStart: number, at: number) => slidingDecision(limit, windowMs, previous, current, windowStart, at);

  /** The shared row, after adding `pending` hits counted in the window starting at `pendingWindow`. */
  const addHits = (key: string, at: number, pending: number, pendingWindow: number): [number, number, number] => {
    const [storedStart = 0, storedPrevious = 0, storedCurrent = 0] = getRateLimitHits(db, name, key, at);
    let row: [number, number, number] = [storedStart, storedPrevious, storedCurrent];
    if (pending > 0) {
      if (storedStart === pendingWindow) row = [storedStart, storedPrevious, storedCurrent + pending];
      else if (storedStart < pendingWindow) row = [pendingWindow, storedStart === pendingWindow - windowMs ? storedCurrent : 0, pending];
      else if (storedStart === pendingWindow + windowMs) row = [storedStart, storedPrevious + pending, storedCurrent];
      if (at - lastSweep >= SWEEP_EVERY_MS) {
        lastSweep = at;
        deleteExpiredRateLimitHits(db, at);
      }
      putRateLimitHits(db, name, key, row, row[0] + 2 * windowMs);
    }
    return row;
  };

  /** [previous window's hits, this window's hits, start of this window] at `at`, from a stored row. */
  const countsAt = ([storedStart, storedPrevious, storedCurrent]: [number, number, number], at: number): [number, number, number] => {
    const windowStart = windowOf(at);
    if (storedStart === windowStart) return [storedPrevious, storedCurrent, windowStart];
    if (storedStart === windowStart - windowMs) return [storedCurrent, 0, windowStart];
    return [0, 0, windowStart];
  };

  if (syncEveryMs <= 0) {
    return {
      check(key) {
        const at = now();
        return decide(...countsAt(addHits(key, at, 0, 0), at), at);
      },
      hit(key) {
        writeTransaction(db, () => void addHits(key, now(), 1, windowOf(now())));
      },
      consume(key) {
        return writeTransaction(db, () => {
          const at = now();
          const decision = decide(...countsAt(addHits(key, at, 0, 0), at), at);
          if (decision.allowed) addHits(key, at, 1, windowOf(at));
          return decision;
        });
      },
      reset(key) {
        deleteRateLimitHits(db, name, key);
      },
    };
  }

  interface Local {
    /** Shared counts at the last sync, in the window starting at `windowStart`. */
    previous: number;
    current: number;
    windowStart: number;
    /** Hits counted here since, not yet in the shared row. */
    pending: number;
    syncedAt: number;
  }
  const local = new Map<string, Local>();
  const batch = Math.max(1, Math.floor(limit / 20));

  const fresh = (key: string, at: number): Local => {
    const entry = local.get(key);
    if (entry && entry.windowStart === windowOf(at) && at - entry.syncedAt < syncEveryMs && entry.pending < batch) return entry;
    const synced = writeTransaction(db, () => {
      // Keys not seen for a window are flushed and forgotten, so the map stays as small as the traffic.
      if (local.size > 10_000) {
        for (const [otherKey, other] of local) {
          if (other.windowStart >= windowOf(at)) continue;
          if (other.pending > 0) addHits(otherKey, at, other.pending, other.windowStart);
          local.delete(otherKey);
        }
      }
      const [previous, current, windowStart] = countsAt(addHits(key, at, entry?.pending ?? 0, entry?.windowStart ?? windowOf(at)), at);
      return { previous, current, windowStart, pending: 0, syncedAt: at };
    });
    local.set(key, synced);
    return synced;
  };

  return {
    check(key) {
      const at = now();
      const entry = fresh(key, at);
      return decide(entry.previous, entry.current + entry.pending, entry.windowStart, at);
    },
    hit(key) {
      fresh(key, now()).pending += 1;
    },
    consume(key) {
      const at = now();
      const entry = fresh(key, at);
      const decision = decide(entry.previous, entry.current + entry.pending, entry.windowStart, at);
      if (decision.allowed) entry.pending += 1;
      return decision;
    },
    reset(key) {
      local.delete(key);
      deleteRateLimitHits(db, name, key);
    },
  };
}
