// The mailings (issue 7, item 4): newest first, each with its progress (pending / sent / failed) and the
// latest problems, refreshed every few seconds while any is still sending (admin-stores.ts).
import { useStore } from '@nanostores/react';
import { formatAdminDate } from './dates.ts';
import type { MailingSummary } from '../../lib/api/admin.ts';
import { mailingsStore } from './admin-stores.ts';
import { MailingProgress } from './MailingProgress.tsx';

const SHOWN = 10;

function Problems({ mailing }: { mailing: MailingSummary }) {
  if (mailing.recent_failures.length === 0) return null;
  return (
    <details className="admin-mailing__problems">
      <summary>Latest problems ({mailing.recent_failures.length})</summary>
      <ul>
        {mailing.recent_failures.map((problem) => (
          <li key={problem.user_id}>
            <strong>{problem.email}</strong> – {problem.status}, {problem.attempts} {problem.attempts === 1 ? 'attempt' : 'attempts'}
            {problem.next_attempt_at && <> (next try {formatAdminDate(problem.next_attempt_at, true)})</>}
            {problem.last_error && <span className="admin-mailing__error">{problem.last_error}</span>}
          </li>
        ))}
      </ul>
    </details>
  );
}

export function MailingsPanel() {
  const { value, failed } = useStore(mailingsStore.$store);
  const mailings = value ?? [];
  return (
    <section className="admin-panel" aria-labelledby="admin-mailings-heading">
      <div className="admin-panel__head">
        <h2 id="admin-mailings-heading" className="admin-panel__title">
          Mailings
        </h2>
        <button type="button" className="button button--secondary button--small" onClick={() => void mailingsStore.refresh()}>
          Refresh<span className="sr-only"> the mailings</span>
        </button>
      </div>
      {failed && <p className="form-message__text form-message__text--error">The mailings could not be refreshed; the list may be out of date.</p>}
      {value === null && !failed && <p className="empty-note">Loading the mailings…</p>}
      {value !== null && mailings.length === 0 && <p className="empty-note">No mailing has been sent yet.</p>}
      {mailings.length > 0 && (
        <ol className="admin-mailing-list">
          {mailings.slice(0, SHOWN).map((mailing) => (
            <li key={mailing.id} className="admin-mailing" data-mailing-id={mailing.id}>
              <h3 className="admin-mailing__title">{mailing.title}</h3>
              <p className="admin-mailing__meta">
                <time dateTime={mailing.created_at}>{formatAdminDate(mailing.created_at, true)}</time>
                {mailing.created_by && <> by {mailing.created_by.name}</>}
              </p>
              <MailingProgress counts={mailing.counts} label={`Progress of the mailing ${mailing.title}`} />
              <Problems mailing={mailing} />
            </li>
          ))}
        </ol>
      )}
      {mailings.length > SHOWN && (
        <p className="field__hint">
          The {SHOWN} newest of {mailings.length} mailings.
        </p>
      )}
    </section>
  );
}
