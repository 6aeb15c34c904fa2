// The site's publish status on /admin (issue 7, item 6; docs/architecture.md#publishing): the public pages are a
// static build made after every content change, so the admin sees whether it is building, when the last
// publish went live and how long it took, and, after a failure, the end of the build log (readers keep the
// previous version meanwhile). 'Publish now' asks for a build by hand.
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { ApiError } from '../../lib/api/request.ts';
import { formatAdminDate } from './dates.ts';
import { publishNow, type PublishStatus } from '../../lib/api/publish.ts';
import { publishStore } from '../../stores/publish-status.ts';

const LOG_LINES = 40;

/** What the search index of the live pages is doing (docs/admin-api.md, `PublishStatus.search`). */
const SEARCH_STATES: Record<NonNullable<PublishStatus['search']>, string> = {
  updating: 'Updating: the search index is being made for the live pages',
  updated: 'Search updated: it finds the live pages',
  stale: 'Not updated: making the index failed (the server log says why); it finds the previous pages until the next publish',
};

function stateText(status: PublishStatus): string {
  if (status.state === 'building') return status.pending ? 'Building; one more build follows for changes made meanwhile' : 'Building';
  if (status.pending) return 'Build queued';
  return status.state === 'failed' ? 'The last build failed' : 'Idle: the live site is up to date';
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function logTail(log: string): string {
  return log.trimEnd().split('\n').slice(-LOG_LINES).join('\n');
}

function StatusDetails({ status }: { status: PublishStatus }) {
  const success = status.last_success;
  const failure = status.last_failure;
  // A failure older than the last success is history, not the current state.
  const failureIsCurrent = failure && (!success || failure.at > success.at);
  return (
    <dl className="details-list admin-publish-details">
      <dt>State</dt>
      <dd>
        <span className={`admin-publish-state admin-publish-state--${status.state}`}>
          {status.state === 'building' && <span className="spinner spinner--small" aria-hidden="true"></span>}
          {stateText(status)}
        </span>
      </dd>
      <dt>Last publish</dt>
      <dd>
        {success ? (
          <>
            <time dateTime={success.at}>{formatAdminDate(success.at, true)}</time>, took {seconds(success.duration_ms)}
          </>
        ) : (
          'None since the server started'
        )}
      </dd>
      {status.search !== null && (
        <>
          <dt>Search</dt>
          {/* The pages go live first; the search index follows them (docs/decisions/0044-incremental-publish.md). */}
          <dd>{SEARCH_STATES[status.search]}</dd>
        </>
      )}
      <dt>Live build</dt>
      <dd className="admin-publish-details__build">{status.current_build_id ?? 'None yet'}</dd>
      {failure && (
        <>
          <dt>Last error</dt>
          <dd>
            <time dateTime={failure.at}>{formatAdminDate(failure.at, true)}</time>, after {seconds(failure.duration_ms)}
            {!failureIsCurrent && ' (a later publish succeeded)'}
            <details className="admin-publish-log" open={Boolean(failureIsCurrent)}>
              <summary>Build log (last {LOG_LINES} lines)</summary>
              <pre tabIndex={0}>{logTail(failure.log)}</pre>
            </details>
          </dd>
        </>
      )}
    </dl>
  );
}

export function PublishPanel() {
  const { value: status, failed } = useStore(publishStore.$store);
  const [error, setError] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);

  const publish = async () => {
    if (asking) return;
    setAsking(true);
    setError(null);
    try {
      publishStore.accept(await publishNow());
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The server could not be reached.');
    } finally {
      setAsking(false);
    }
  };

  return (
    <section className="admin-panel" aria-labelledby="admin-publish-heading">
      <div className="admin-panel__head">
        <h2 id="admin-publish-heading" className="admin-panel__title">
          Site publishing
        </h2>
        <button type="button" className="button button--small" onClick={() => void publish()} aria-disabled={asking || undefined}>
          Publish now
        </button>
      </div>
      <div role="status" aria-live="polite">
        {status ? <StatusDetails status={status} /> : !failed && <p className="empty-note">Reading the publish status…</p>}
      </div>
      {(failed || error) && (
        <p className="form-message__text form-message__text--error">{error ?? 'The publish status could not be read; it may be out of date.'}</p>
      )}
    </section>
  );
}
