// Background work the primary does on a timer (docs/decisions/0022-one-process-model.md): the mailing
// worker, the licence reminders, the webhook deliveries and the release digests. One shape for all: a run
// every `intervalMs` after the previous one ended (never two at once; a manual runOnce() joins the run in
// progress), and a stop that lets the run in flight finish its current send while the job's own loop checks
// isStopping() to claim nothing more. wake() is for work just queued (a mailing an admin sent, a webhook
// event): a run now instead of at the next tick, or one more run right after the run in progress, which may
// have looked for work before it was queued.
import type { Logger } from '../log.ts';

export interface PeriodicJob<T> {
  /** Runs now, or joins the run in progress; resolves with its result. */
  runOnce(): Promise<T>;
  /**
   * Work was queued: runs now, or once more right after the run in progress. Never throws; a failed run is
   * logged as a timed one is. Nothing happens once the job is stopping.
   */
  wake(): void;
  /** No new run starts; resolves when the run in flight has ended. */
  stop(): Promise<void>;
}

export interface PeriodicJobOptions<T> {
  /** 0: never on a timer, only through runOnce() (tests). */
  intervalMs: number;
  log: Logger;
  /** Names the job in the log line of a failed run. */
  label: string;
  run: () => Promise<T>;
}

export function startPeriodicJob<T>(options: PeriodicJobOptions<T>): PeriodicJob<T> & { isStopping(): boolean } {
  let current: Promise<T> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopping = false;
  // Woken during a run: that run may have looked before the work was queued, so one more follows it.
  let again = false;

  function runOnce(): Promise<T> {
    current ??= options.run().finally(() => {
      current = null;
      if (again) {
        again = false;
        wake();
      }
    });
    return current;
  }

  const logFailure = (error: unknown) => options.log.error(`${options.label}: run failed`, error);

  function wake(): void {
    if (stopping) return;
    if (current) again = true;
    else runOnce().catch(logFailure);
  }

  const tick = () => {
    timer = null;
    runOnce()
      .catch(logFailure)
      .finally(() => {
        if (!stopping) timer = setTimeout(tick, options.intervalMs).unref();
      });
  };
  if (options.intervalMs > 0) timer = setTimeout(tick, options.intervalMs).unref();

  return {
    runOnce,
    wake,
    isStopping: () => stopping,
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await current?.catch(() => undefined);
    },
  };
}
