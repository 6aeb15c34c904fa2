// The one shape of the primary's background jobs (server/process/periodic-job.ts): a wake runs the job now,
// a wake during a run brings exactly one more run after it (that run may have looked before the work was
// queued), a failed woken run is logged, and a stopping job is not woken.
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../../server/log.ts';
import { startPeriodicJob } from '../../../server/process/periodic-job.ts';

/** A job whose runs the test finishes one by one; `queued` is the work each run finds when it starts. */
function controlledJob() {
  const lines: string[] = [];
  const log = createLogger('silent', (line) => lines.push(line));
  let queued = 0;
  const found: number[] = [];
  const finishers: Array<(error?: Error) => void> = [];
  const job = startPeriodicJob({
    // An hour: in these tests only wake() or runOnce() starts a run.
    intervalMs: 3_600_000,
    log,
    label: 'test job',
    run: () =>
      new Promise<number>((resolve, reject) => {
        const taken = queued;
        queued = 0;
        found.push(taken);
        finishers.push((error) => (error ? reject(error) : resolve(taken)));
      }),
  });
  return {
    job,
    lines,
    found,
    queue: (count: number) => (queued += count),
    finish: (index: number, error?: Error) => finishers[index]?.(error),
  };
}

describe('a periodic job woken for queued work', () => {
  it('runs at once when idle, and once more after a run that was in progress when woken', async () => {
    const { job, found, queue, finish } = controlledJob();
    queue(3);
    job.wake();
    expect(found).toEqual([3]);

    // Work queued while the run goes on: that run looked before it, so the wakes bring one more run, not two.
    queue(2);
    job.wake();
    job.wake();
    expect(found).toEqual([3]);
    finish(0);
    await vi.waitFor(() => expect(found).toEqual([3, 2]));
    finish(1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(found).toEqual([3, 2]);
    await job.stop();
  });

  it('logs a woken run that failed, as a timed one is, and runs again when woken again', async () => {
    const { job, lines, found, queue, finish } = controlledJob();
    queue(1);
    job.wake();
    finish(0, new Error('the database is locked'));
    await vi.waitFor(() =>
      expect(lines.map((line) => JSON.parse(line) as { msg: string; err?: { message: string } })).toContainEqual(
        expect.objectContaining({ msg: 'test job: run failed', err: expect.objectContaining({ message: 'the database is locked' }) }),
      ),
    );
    queue(1);
    job.wake();
    expect(found).toEqual([1, 1]);
    finish(1);
    await job.stop();
  });

  it('is not woken once stopping, and a wake during the last run brings none after the stop', async () => {
    const { job, found, queue, finish } = controlledJob();
    queue(1);
    job.wake();
    const stopped = job.stop();
    queue(1);
    job.wake();
    finish(0);
    await stopped;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(found).toEqual([1]);
  });
});
