// Update checks, counted without a write per request (issue 25 item 5): each process adds them up in memory
// per (day, channel, platform, reported version) and adds its sums to the table every few seconds and at
// the graceful stop, so `latest` costs no write transaction. Like the machine APIs' rate limiters
// (server/auth/rate-limit.ts, createCountingRateLimiter): a crash loses at most the last few seconds of counts.
import type { Db } from '../../db/client.ts';
import { writeTransaction } from '../../db/client.ts';
import type { Logger } from '../../log.ts';
import { addUpdateChecks } from './queries.ts';

export const CHECK_FLUSH_MS = 5_000;

export interface CheckCounter {
  count(check: { day: string; channel: string; platform: string; version: string }): void;
  /** Writes what was counted since the last flush (one transaction); safe to call at any time. */
  flush(): void;
  /** Flushes and stops the timer. */
  stop(): void;
}

export function createCheckCounter(db: Db, log: Pick<Logger, 'error'>, flushEveryMs = CHECK_FLUSH_MS): CheckCounter {
  let pending = new Map<string, { day: string; channel: string; platform: string; version: string; count: number }>();
  const flush = () => {
    if (pending.size === 0) return;
    const rows = [...pending.values()];
    pending = new Map();
    try {
      writeTransaction(db, () => addUpdateChecks(db, rows));
    } catch (error) {
      // Kept for the next flush rather than lost (a busy database, a full disk).
      for (const row of rows) {
        const key = `${row.day}\n${row.channel}\n${row.platform}\n${row.version}`;
        const current = pending.get(key);
        pending.set(key, current ? { ...current, count: current.count + row.count } : row);
      }
      log.error('update checks could not be counted; kept for the next try', error);
    }
  };
  const timer = flushEveryMs > 0 ? setInterval(flush, flushEveryMs).unref() : null;
  return {
    count(check) {
      const key = `${check.day}\n${check.channel}\n${check.platform}\n${check.version}`;
      const current = pending.get(key);
      if (current) current.count++;
      else pending.set(key, { ...check, count: 1 });
    },
    flush,
    stop() {
      if (timer) clearInterval(timer);
      flush();
    },
  };
}
