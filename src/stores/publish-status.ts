// The one store of the site's publish status (docs/admin-api.md, `PublishStatus`), in two views:
// - `publishStore`: the status itself, polled while a component shows it (quickly while a build runs);
// - `$publishPhase`: where the admin's own last write stands for readers, after `followPublish()`.
// A write schedules its build before it answers, and the publisher says 'building' from then until the
// last coalesced build has finished, so after a write the first status that is not 'building' is that
// write's outcome: 'idle' means it is live, 'failed' that readers still see the previous version. The
// search index follows the pages (docs/decisions/0044-incremental-publish.md): once live, the watch goes on
// until the status says `search: 'updated'`, so the admin reads "Live", then "Search updated".
// Both live in module-level nanostores, not in components: the watch carries on when the admin moves to
// another reading page (only <main> is swapped) and the island there is a new component.
import { useStore } from '@nanostores/react';
import { atom } from 'nanostores';
import { ApiError } from '../lib/api/request.ts';
import { fetchPublishStatus, publishSettled, type PublishStatus } from '../lib/api/publish.ts';
import { createPolledStore } from './polled-store.ts';

/** Where the search index stands once the pages are live; null when the status does not say (an older server). */
export type SearchPhase = 'updating' | 'updated' | 'stale' | null;

export type PublishPhase =
  { kind: 'none' } | { kind: 'publishing' } | { kind: 'live'; at: string | null; search: SearchPhase } | { kind: 'failed'; log: string } | { kind: 'unknown' };

export const FOLLOW_POLL_MS = 1000;
/** Stops following after this long; the admin screen keeps the full publish status. */
export const FOLLOW_GIVE_UP_MS = 5 * 60 * 1000;

export const publishStore = createPolledStore<PublishStatus>({
  load: fetchPublishStatus,
  // The search index following the pages (docs/decisions/0044-incremental-publish.md) is worth a quick look too.
  busy: (status) => !publishSettled(status) || status.search === 'updating',
  busyMs: 1000,
  // Other admins and content edits start builds too; a slow poll keeps the panel roughly current.
  idleMs: 30_000,
});

/**
 * The outcome a status answer (read after the write answered) tells, or null while the build runs. Idle
 * means the last build succeeded and nothing is left to build, so the write's build (finished before the
 * first look, or coalesced into a later one) is live.
 */
export function publishOutcome(status: PublishStatus): PublishPhase | null {
  if (status.state === 'building') return null;
  if (status.state === 'failed') return { kind: 'failed', log: status.last_failure?.log ?? '' };
  return { kind: 'live', at: status.last_success?.at ?? null, search: status.search ?? null };
}

/** Whether a watch has seen all there is to see: anything but live pages whose search index is still being made. */
function followedToTheEnd(phase: PublishPhase): boolean {
  return phase.kind !== 'live' || phase.search !== 'updating';
}

function samePhase(a: PublishPhase, b: PublishPhase): boolean {
  return a.kind === 'live' && b.kind === 'live' ? a.at === b.at && a.search === b.search : a.kind === b.kind;
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
      const status = await fetchPublishStatus();
      if (thisRun !== run) return;
      // Whoever shows the full status gets this answer too, without a request of its own.
      publishStore.accept(status);
      const outcome = publishOutcome(status);
      if (outcome) {
        // The same answer again (search still updating) keeps the phase object, so nothing is announced twice.
        if (!samePhase($publishPhase.get(), outcome)) $publishPhase.set(outcome);
        if (followedToTheEnd(outcome)) return;
      }
    } catch (error) {
      // The session ended (or the role was taken away): there is nothing left to follow.
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return $publishPhase.set({ kind: 'none' });
      console.error('Could not read the publish status', error);
    }
    if (thisRun !== run) return;
    if (Date.now() - started > FOLLOW_GIVE_UP_MS) return $publishPhase.set({ kind: 'unknown' });
    timer = setTimeout(() => void poll(), FOLLOW_POLL_MS);
  };
  // The write has answered, so its build is already scheduled: the first look can come soon.
  timer = setTimeout(() => void poll(), FOLLOW_POLL_MS / 4);
}

export function usePublishPhase(): PublishPhase {
  return useStore($publishPhase);
}
