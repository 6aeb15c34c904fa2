// The publish status beside the admin tools (issue 5, item 5): 'Publishing…' while the static site is
// rebuilt with the admin's change, then 'Live', or the failure with the end of the build log. A live
// region that exists from the start, so each change is announced.
import type { PublishPhase } from './use-publish-status.ts';

function timeOf(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString();
}

export function PublishState({ phase }: { phase: PublishPhase }) {
  return (
    <div className={`publish-state publish-state--${phase.kind}`} role="status" aria-live="polite" aria-atomic="true" data-publish-state={phase.kind}>
      {phase.kind === 'publishing' && (
        <p className="publish-state__text">
          <span className="spinner spinner--small" aria-hidden="true"></span>
          Publishing…
        </p>
      )}
      {phase.kind === 'live' && (
        <p className="publish-state__text">
          Live<span className="publish-state__detail">{phase.at ? ` since ${timeOf(phase.at)}` : ''}: readers see this change.</span>
        </p>
      )}
      {phase.kind === 'failed' && (
        <>
          <p className="publish-state__text">Publishing failed: readers still see the previous version.</p>
          {phase.log && (
            <details className="publish-state__log">
              <summary>Build log (last lines)</summary>
              <pre>{phase.log}</pre>
            </details>
          )}
        </>
      )}
      {phase.kind === 'unknown' && <p className="publish-state__text">Still publishing: the admin screen shows the outcome.</p>}
    </div>
  );
}
