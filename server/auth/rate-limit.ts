// A small in-memory sliding-window limiter: at most `limit` hits per key within any `windowMs`.
// Generic (login now; contact form, resend mail and reset requests later). Everything is in
// milliseconds from the injected clock; only retryAfterSeconds, meant for the Retry-After header, is in
// seconds. (DESIGN.md: Lucia's token bucket mixes the two units; keep them apart and test with a fake clock.)
// In memory on purpose: the product runs as one process, and losing counters at restart is harmless.

export interface RateLimitOptions {
  limit: number;
  windowMs: number;
  /** Milliseconds since the epoch (AppContext.now), so tests can move time. */
  now: () => number;
  /** Upper bound on tracked keys, so a flood of distinct keys cannot grow memory without end. */
  maxKeys?: number;
}

export type RateLimitDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

export interface RateLimiter {
  /** Whether another hit would be allowed now; does not count one. */
  check(key: string): RateLimitDecision;
  /** Counts one hit (e.g. one failed login). */
  hit(key: string): void;
  /** check + hit when allowed: for throttles where every attempt counts. */
  consume(key: string): RateLimitDecision;
  /** Forgets the key (e.g. after a successful login). */
  reset(key: string): void;
}

export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const { limit, windowMs, now } = options;
  const maxKeys = options.maxKeys ?? 10_000;
  // key → times of the hits still inside the window, oldest first (never more than `limit`).
  const hits = new Map<string, number[]>();
  let lastSweep = now();

  const recentHits = (key: string, at: number): number[] => {
    const times = hits.get(key);
    if (!times) return [];
    const recent = times.filter((time) => at - time < windowMs);
    if (recent.length === 0) hits.delete(key);
    else if (recent.length !== times.length) hits.set(key, recent);
    return recent;
  };

  const sweep = (at: number) => {
    if (at - lastSweep < windowMs && hits.size <= maxKeys) return;
    lastSweep = at;
    for (const key of [...hits.keys()]) recentHits(key, at);
    // Still too many live keys: drop the oldest-inserted ones; the worst case is a forgotten counter.
    for (const key of hits.keys()) {
      if (hits.size <= maxKeys) break;
      hits.delete(key);
    }
  };

  const check = (key: string): RateLimitDecision => {
    const at = now();
    const recent = recentHits(key, at);
    if (recent.length < limit) return { allowed: true, remaining: limit - recent.length };
    // A slot frees when the oldest counted hit leaves the window.
    const oldest = recent[recent.length - limit] ?? at;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - at) / 1000)) };
  };

  const hit = (key: string): void => {
    const at = now();
    sweep(at);
    const recent = recentHits(key, at);
    hits.set(key, [...recent, at].slice(-limit));
  };

  return {
    check,
    hit,
    consume(key) {
      const decision = check(key);
      if (decision.allowed) {
        hit(key);
        return { allowed: true, remaining: decision.remaining - 1 };
      }
      return decision;
    },
    reset(key) {
      hits.delete(key);
    },
  };
}
