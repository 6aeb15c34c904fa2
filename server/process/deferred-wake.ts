// The one way AppContext.wake takes effect, in the primary (server/main.ts) and in every other serving process
// (worker.ts): on the next turn of the event loop, so after the synchronous transaction that may have called
// it, and once per job per turn, so a change that records many events (a batch of expired licenses) nudges
// its job once rather than once per event.
import type { BackgroundJob } from '../context.ts';

export function deferredWake(deliver: (job: BackgroundJob) => void): (job: BackgroundJob) => void {
  const due = new Set<BackgroundJob>();
  return (job) => {
    if (due.has(job)) return;
    due.add(job);
    setImmediate(() => {
      due.delete(job);
      deliver(job);
    });
  };
}
