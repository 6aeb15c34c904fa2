// The sitemap the last publish produced, shown on the page (docs/product/admin.md#sitemap; the original wrote it to the console): one row
// per entry with its address, priority (0.8 sections, 0.6 posts) and last modification. It takes focus
// when it opens, since it appears in answer to the Create XML Map button.
import { useEffect, useRef } from 'react';
import { formatAdminDate } from './dates.ts';
import type { SitemapRun } from './use-sitemap.ts';

function Entries({ run }: { run: Extract<SitemapRun, { phase: 'done' }> }) {
  const { sitemap, publishFailed } = run;
  return (
    <>
      {publishFailed && (
        <p className="form-message__text form-message__text--error">
          The publish failed, so this is the sitemap of the site still live. See Site publishing for the build log.
        </p>
      )}
      {sitemap.entries.length === 0 ? (
        <p className="empty-note">{sitemap.message ?? 'The sitemap has no entries.'}</p>
      ) : (
        <>
          <p>
            {sitemap.entries.length} {sitemap.entries.length === 1 ? 'entry' : 'entries'} in <code>{sitemap.file}</code> of build{' '}
            <code>{sitemap.build_id}</code>.
          </p>
          <div className="table-scroll admin-sitemap-entries" role="region" aria-label="Sitemap entries" tabIndex={0}>
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">Address (loc)</th>
                  <th scope="col">Priority</th>
                  <th scope="col">Last modified</th>
                </tr>
              </thead>
              <tbody>
                {sitemap.entries.map((entry) => (
                  <tr key={entry.loc}>
                    <th scope="row" className="admin-sitemap-entries__loc">
                      <a href={entry.loc}>{entry.loc}</a>
                    </th>
                    <td>{entry.priority === null ? '—' : entry.priority.toFixed(1)}</td>
                    <td>
                      {entry.lastmod ? (
                        <time dateTime={entry.lastmod}>{formatAdminDate(entry.lastmod, entry.lastmod.includes('T')) ?? entry.lastmod}</time>
                      ) : (
                        '—'
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}

export function SitemapPanel({ run, onClose }: { run: SitemapRun; onClose: () => void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const open = run.phase !== 'idle';
  useEffect(() => {
    if (open) headingRef.current?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <section className="admin-panel admin-sitemap-panel" aria-labelledby="admin-sitemap-heading">
      <div className="admin-panel__head">
        <h2 id="admin-sitemap-heading" className="admin-panel__title" ref={headingRef} tabIndex={-1}>
          Sitemap
        </h2>
        <button type="button" className="button button--secondary button--small" onClick={onClose}>
          Close<span className="sr-only"> the sitemap</span>
        </button>
      </div>
      <div role="status" aria-live="polite">
        {run.phase === 'publishing' && (
          <p className="admin-sitemap-panel__progress">
            <span className="spinner spinner--small" aria-hidden="true"></span> {run.message}
          </p>
        )}
        {run.phase === 'failed' && <p className="form-message__text form-message__text--error">{run.message}</p>}
        {run.phase === 'done' && <p className="admin-sitemap-panel__progress">The sitemap has been regenerated.</p>}
      </div>
      {run.phase === 'done' && <Entries run={run} />}
    </section>
  );
}
