// The primary's background pass over release files without their SHA-512 or Ed25519 signature (digests.ts):
// at start (files stored before issue 25, uploads a crash cut off before signing) and then every few
// minutes. It joins the graceful stop like the other jobs (docs/engineering.md#operations-how-the-server-stops).
import type { AppContext } from '../../context.ts';
import { startPeriodicJob } from '../../process/periodic-job.ts';
import { fillFileDigests } from './digests.ts';

export const RELEASE_DIGESTS_INTERVAL_MS = 5 * 60_000;

export function startReleaseDigests(ctx: Pick<AppContext, 'db' | 'storage' | 'log' | 'updateKeyring'>, options: { intervalMs: number }) {
  let job: ReturnType<typeof startPeriodicJob<number>> | null = null;
  job = startPeriodicJob({
    intervalMs: options.intervalMs,
    log: ctx.log,
    label: 'release file digests',
    run: async () => {
      const done = await fillFileDigests(ctx, () => job?.isStopping() ?? false);
      if (done > 0) ctx.log.info(`release file digests: ${done} file${done === 1 ? '' : 's'} hashed and signed`);
      return done;
    },
  });
  // At start, not only after the first interval.
  void job.runOnce().catch((error: unknown) => ctx.log.error('release file digests: run failed', error));
  return job;
}
