// After each write the static page lags until the publish that includes it is live (docs/architecture.md#publishing). This follows GET /api/admin/publish so the admin can see when readers get the change: the
// publisher reports 'building' from the moment a write schedules a build until the last coalesced build
// has finished, so the first answer that is not 'building' tells the outcome of this write's build.
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchPublishStatus } from '../../lib/api/publish.ts';

export type PublishPhase = 'none' | 'publishing' | 'live' | 'failed' | 'unknown';

const POLL_MS = 1000;
/** Gives up following after this long; the admin screen has the full publish status. */
const GIVE_UP_MS = 5 * 60 * 1000;

export function usePublishStatus(): { phase: PublishPhase; follow: () => void } {
  const [phase, setPhase] = useState<PublishPhase>('none');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const run = useRef(0);

  useEffect(() => () => clearTimeout(timer.current), []);

  const follow = useCallback(() => {
    clearTimeout(timer.current);
    // A newer write restarts the watch; answers of the older one are ignored.
    run.current += 1;
    const thisRun = run.current;
    const started = Date.now();
    setPhase('publishing');
    const poll = async () => {
      try {
        const status = await fetchPublishStatus();
        if (thisRun !== run.current) return;
        if (status.state === 'idle') return setPhase('live');
        if (status.state === 'failed') return setPhase('failed');
      } catch (error) {
        console.error('Could not read the publish status', error);
      }
      if (thisRun !== run.current) return;
      if (Date.now() - started > GIVE_UP_MS) return setPhase('unknown');
      timer.current = setTimeout(() => void poll(), POLL_MS);
    };
    timer.current = setTimeout(() => void poll(), POLL_MS / 2);
  }, []);

  return { phase, follow };
}
