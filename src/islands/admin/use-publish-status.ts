// Where the admin's last change stands for readers (issue 5, item 5): the static pages lag behind the
// database until the publish that includes a write is live (docs/architecture.md#publishing). A write schedules its
// build before it answers, and the publisher reports 'building' from then until the last coalesced build
// has finished; so after a write, the first status that is not 'building' is that write's outcome: 'idle'
// means it is live, 'failed' that readers still see the previous version (with the build's log tail).
// The watch lives in a store, not in a component: it carries on when the admin moves to another reading
// page (only <main> is swapped) and the overlay there is a new component.
import { useStore } from '@nanostores/react';
import { atom } from 'nanostores';
import { ApiError } from '../../lib/api/client.ts';
import { fetchPublishStatus, type PublishStatus as PublishStatusAnswer } from '../../lib/api/publish.ts';

export type PublishPhase = { kind: 'none' } | { kind: 'publishing' } | { kind: 'live'; at: string | null } | { kind: 'failed'; log: string } | { kind: 'unknown' };

const POLL_MS = 1000;
/** Stops following after this long; the admin screen keeps the full publish status. */
const GIVE_UP_MS = 5 * 60 * 1000;

/**
 * The outcome a status answer (read after the write answered) tells, or null while the build runs. Idle
 * means the last build succeeded and nothing is left to build, so the write's build (finished before the
 * first look, or coalesced into a later one) is live.
 */
export function publishOutcome(status: PublishStatusAnswer): PublishPhase | null {
  if (status.state === 'building') return null;
  if (status.state === 'failed') return { kind: 'failed', log: status.last_failure?.log ?? '' };
  return { kind: 'live', at: status.last_success?.at ?? null };
}

export const $publishPhase = atom<PublishPhase>({ kind: 'none' });

let timer: ReturnType<typeof setTimeout> | undefined;
let run = 0;

/** Call after every successful write: follows the publish it scheduled. */
export function followPublish(): void {
  clearTimeout(timer);
  // A newer write restarts the watch; answers for the older one are ignored.
  run += 1;
  const thisRun = run;
  const started = Date.now();
  $publishPhase.set({ kind: 'publishing' });
  const poll = async () => {
    try {
      const outcome = publishOutcome(await fetchPublishStatus());
      if (thisRun !== run) return;
      if (outcome) return $publishPhase.set(outcome);
    } catch (error) {
      // The session ended (or the role was taken away): there is nothing left to follow.
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return $publishPhase.set({ kind: 'none' });
      console.error('Could not read the publish status', error);
    }
    if (thisRun !== run) return;
    if (Date.now() - started > GIVE_UP_MS) return $publishPhase.set({ kind: 'unknown' });
    timer = setTimeout(() => void poll(), POLL_MS);
  };
  // The write has answered, so its build is already scheduled: the first look can come soon.
  timer = setTimeout(() => void poll(), POLL_MS / 4);
}

export function usePublishPhase(): PublishPhase {
  return useStore($publishPhase);
}
