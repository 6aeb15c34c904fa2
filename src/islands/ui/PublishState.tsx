// Where the admin's last change stands for readers, beside the admin tools of the content pages and the
// downloads page: 'Publishing…' while the static site is rebuilt with the change, then 'Live', or the
// failure with the end of the build log (docs/architecture.md on publishing). A live region that exists
// from the start, so each change is announced. It reads the site-wide store, so a watch started on one
// page shows on the next.
import { usePublishPhase } from '../../stores/publish-status.ts';

function timeOf(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString();
}

export function PublishState() {
  const phase = usePublishPhase();
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
