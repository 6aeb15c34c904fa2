// The shared limiter on a real SQLite file, driven by a fake clock in milliseconds (Lucia's bucket mixed
// seconds and milliseconds: docs/engineering.md). Two connections to one file stand for two serving
// processes (docs/decisions/0022-one-process-model.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCountingRateLimiter, createRateLimiter } from '../../../server/auth/rate-limit.ts';
import { openDatabase, type Db } from '../../../server/db/client.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rate-limit-test-'));
const file = path.join(dir, 'site.db');
const connections: Db[] = [];
afterAll(() => {
  for (const db of connections) db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function connect(): Db {
  const db = openDatabase(file);
  connections.push(db);
  return db;
}

let limiterCount = 0;

function setup(limit = 5, windowMs = 60_000) {
  let clock = 1_700_000_000_000;
  const db = connect();
  const name = `test-${(limiterCount += 1)}`;
  const limiter = createRateLimiter({ db, name, limit, windowMs, now: () => clock });
  return { limiter, name, advance: (ms: number) => (clock += ms), now: () => clock };
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

  it('counts across connections: a second process sees and adds to the same counters', () => {
    const first = setup(3, 60_000);
    const second = createRateLimiter({ db: connect(), name: first.name, limit: 3, windowMs: 60_000, now: first.now });
    expect(first.limiter.consume('k').allowed).toBe(true);
    expect(second.consume('k')).toEqual({ allowed: true, remaining: 1 });
    expect(first.limiter.consume('k')).toEqual({ allowed: true, remaining: 0 });
    expect(second.check('k').allowed).toBe(false);
    second.reset('k');
    expect(first.limiter.check('k')).toEqual({ allowed: true, remaining: 3 });
  });

  it('keeps limiters with different names apart on the same key', () => {
    const a = setup(1);
    const b = setup(1);
    a.limiter.hit('k');
    expect(a.limiter.check('k').allowed).toBe(false);
    expect(b.limiter.check('k').allowed).toBe(true);
  });

  it('sweeps rows whose window has passed, so a flood of distinct keys does not stay', () => {
    const { limiter, advance } = setup(1, 1_000);
    const db = connections.at(-1) as Db;
    const count = () => (db.$client.prepare('SELECT count(*) AS n FROM rate_limit_hits WHERE key LIKE ?').get('flood-%') as { n: number }).n;
    for (let index = 0; index < 200; index += 1) limiter.hit(`flood-${index}`);
    expect(count()).toBe(200);
    advance(61_000);
    limiter.hit('after');
    expect(count()).toBe(0);
  });
});

describe('createCountingRateLimiter (two counters per key, for high limits)', () => {
  const counting = (limit: number, start = 1_700_000_040_000) => {
    let clock = start;
    const db = connect();
    const limiter = createCountingRateLimiter({ db, name: `counting-${(limiterCount += 1)}`, limit, windowMs: 60_000, now: () => clock });
    return { limiter, db, advance: (ms: number) => (clock += ms), now: () => clock };
  };

  it('allows `limit` hits, then refuses until the moment Retry-After names, and not a second before', () => {
    const { limiter, advance } = counting(10);
    for (let index = 0; index < 10; index += 1) expect(limiter.consume('k').allowed).toBe(true);
    const refused = limiter.consume('k');
    expect(refused.allowed).toBe(false);
    if (refused.allowed) return;
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    advance(refused.retryAfterSeconds * 1000 - 1000);
    expect(limiter.consume('k').allowed).toBe(false);
    advance(1000);
    expect(limiter.consume('k').allowed).toBe(true);
  });

  it('weighs the previous window by its overlap: half-way through the next window, about half the limit is free', () => {
    const { limiter, advance } = counting(100, 1_700_000_040_000);
    // 1_700_000_040_000 is a window start (a multiple of 60 s).
    for (let index = 0; index < 100; index += 1) limiter.consume('k');
    advance(90_000);
    let allowed = 0;
    while (limiter.consume('k').allowed) allowed += 1;
    expect(allowed).toBe(50);
  });

  it('counts one limit across two connections (two serving processes)', () => {
    const { limiter, now } = counting(4);
    const other = createCountingRateLimiter({ db: connect(), name: `counting-${limiterCount}`, limit: 4, windowMs: 60_000, now });
    expect([limiter.consume('k'), other.consume('k'), limiter.consume('k'), other.consume('k'), other.consume('k')].map((d) => d.allowed)).toEqual([
      true,
      true,
      true,
      true,
      false,
    ]);
    expect(limiter.check('k').allowed).toBe(false);
  });
});

describe('createCountingRateLimiter with syncEveryMs (counted in memory, shared every so often)', () => {
  it('shares its hits with other processes at the next sync, and refuses once the shared count reaches the limit', () => {
    let clock = 1_700_000_040_000;
    const name = `batched-${(limiterCount += 1)}`;
    const options = { name, limit: 100, windowMs: 60_000, now: () => clock, syncEveryMs: 1000 };
    const first = createCountingRateLimiter({ ...options, db: connect() });
    const second = createCountingRateLimiter({ ...options, db: connect() });
    // A twentieth of the limit (5 hits) forces a sync: after 60 hits here, the other process knows of at least 55.
    for (let index = 0; index < 60; index += 1) expect(first.consume('k').allowed).toBe(true);
    let allowed = 0;
    while (second.consume('k').allowed) allowed += 1;
    expect(allowed).toBeGreaterThanOrEqual(40);
    expect(allowed).toBeLessThanOrEqual(45);
    // After the sync interval the first process sees the second's hits too.
    clock += 1000;
    expect(first.consume('k').allowed).toBe(false);
  });
});
