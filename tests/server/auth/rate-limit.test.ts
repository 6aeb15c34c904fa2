// The generic limiter, driven by a fake clock in milliseconds (DESIGN.md: Lucia's bucket mixed s and ms).
import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../../server/auth/rate-limit.ts';

function setup(limit = 5, windowMs = 60_000, maxKeys?: number) {
  let clock = 1_700_000_000_000;
  const limiter = createRateLimiter({ limit, windowMs, now: () => clock, ...(maxKeys ? { maxKeys } : {}) });
  return { limiter, advance: (ms: number) => (clock += ms) };
}

describe('createRateLimiter', () => {
  it('allows `limit` hits in the window and then refuses, with Retry-After in whole seconds', () => {
    const { limiter, advance } = setup();
    for (let index = 0; index < 5; index += 1) {
      expect(limiter.check('k')).toEqual({ allowed: true, remaining: 5 - index });
      limiter.hit('k');
      advance(1_000);
    }
    // First hit 5 s ago: it leaves the 60 s window in 55 s.
    expect(limiter.check('k')).toEqual({ allowed: false, retryAfterSeconds: 55 });
    advance(54_500);
    expect(limiter.check('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    advance(500);
    expect(limiter.check('k')).toEqual({ allowed: true, remaining: 1 });
  });

  it('slides: old hits leave one by one', () => {
    const { limiter, advance } = setup(2, 10_000);
    limiter.hit('k'); // t=0
    advance(6_000);
    limiter.hit('k'); // t=6 s
    expect(limiter.check('k').allowed).toBe(false);
    advance(4_000); // t=10 s: the first hit is out
    expect(limiter.check('k')).toEqual({ allowed: true, remaining: 1 });
    limiter.hit('k');
    expect(limiter.check('k')).toEqual({ allowed: false, retryAfterSeconds: 6 });
  });

  it('keeps keys apart and forgets a key on reset', () => {
    const { limiter } = setup(1);
    limiter.hit('a');
    expect(limiter.check('a').allowed).toBe(false);
    expect(limiter.check('b').allowed).toBe(true);
    limiter.reset('a');
    expect(limiter.check('a').allowed).toBe(true);
  });

  it('consume counts only allowed attempts', () => {
    const { limiter, advance } = setup(2, 1_000);
    expect(limiter.consume('k')).toEqual({ allowed: true, remaining: 1 });
    expect(limiter.consume('k')).toEqual({ allowed: true, remaining: 0 });
    expect(limiter.consume('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    advance(1_000);
    expect(limiter.consume('k').allowed).toBe(true);
  });

  it('never retries after 0 seconds: a refusal always says at least 1', () => {
    const { limiter, advance } = setup(1, 1_000);
    limiter.hit('k');
    advance(999);
    expect(limiter.check('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('bounds memory under a flood of distinct keys', () => {
    const { limiter } = setup(1, 60_000, 100);
    for (let index = 0; index < 1_000; index += 1) limiter.hit(`key-${index}`);
    // The newest keys are still tracked; the oldest were dropped to respect maxKeys.
    expect(limiter.check('key-999').allowed).toBe(false);
    expect(limiter.check('key-0').allowed).toBe(true);
  });
});
