// AppContext.wake's one mechanism (server/process/deferred-wake.ts): never inside the caller's synchronous
// code (its transaction), and once per job per turn of the event loop.
import { describe, expect, it } from 'vitest';
import type { BackgroundJob } from '../../../server/context.ts';
import { deferredWake } from '../../../server/process/deferred-wake.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('deferredWake', () => {
  it('delivers on the next turn, once per job however often it was called, and again on a later turn', async () => {
    const delivered: BackgroundJob[] = [];
    const wake = deferredWake((job) => delivered.push(job));
    for (let i = 0; i < 100; i++) wake('webhooks');
    wake('mailing');
    // Still inside the caller's synchronous code: nothing yet.
    expect(delivered).toEqual([]);
    await nextTurn();
    expect(delivered).toEqual(['webhooks', 'mailing']);
    wake('webhooks');
    await nextTurn();
    expect(delivered).toEqual(['webhooks', 'mailing', 'webhooks']);
  });
});
