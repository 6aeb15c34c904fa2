// The admin's view of the releases, from the API rather than the static page (which lags behind each
// write until the publish is live): the same cards and Previous Releases table readers get, plus each
// release's completed-download count (issue 6 item 5) and Edit, Delete and Download. How a release reads is
// defined once, in src/lib/release-markup.ts, which the static markup uses too.
import { useId } from 'react';
import { PREVIOUS_RELEASES_COLUMNS, releaseCardClass, releaseFileFacts, shownVersion } from '../../lib/release-markup.ts';
import { CopyButton } from '../ui/CopyButton.tsx';
import { ReleaseActions } from './ReleaseActions.tsx';
import { ReleaseBody, type StaticBodies } from './ReleaseBody.tsx';
import type { Release } from '../../lib/api/downloads.ts';

interface ListProps {
  releases: Release[];
  staticBodies: StaticBodies;
  onEdit: (release: Release) => void;
  onDelete: (release: Release) => void;
  onDownloaded: () => void;
}

function countText(release: Release): string {
  const count = release.download_count ?? 0;
  return `${count} ${count === 1 ? 'download' : 'downloads'}`;
}

function AdminReleaseCard({ release, staticBodies, onEdit, onDelete, onDownloaded }: Omit<ListProps, 'releases'> & { release: Release }) {
  const id = useId();
  const version = shownVersion(release.release);
  const file = releaseFileFacts(release);
  return (
    <article className={releaseCardClass(release.is_current === 1)} aria-labelledby={`${id}-title`} data-admin-release-id={release.id}>
      <header className="download-card__header">
        <h2 id={`${id}-title`} className="download-card__title">
          {release.title}
        </h2>
        {version && <p className="download-card__release">Version {version}</p>}
        {release.is_current === 1 && <p className="badge">Current release</p>}
        <p className="download-count" data-download-count>
          {countText(release)}
        </p>
      </header>
      <ReleaseBody release={release} staticBodies={staticBodies} />
      {file && (
        <dl className="download-card__file">
          <div>
            <dt>File</dt>
            <dd className="download-card__filename">{file.filename}</dd>
          </div>
          {file.size && (
            <div>
              <dt>Size</dt>
              <dd>{file.size}</dd>
            </div>
          )}
          {file.sha256 && (
            <div className="download-card__sha">
              <dt>SHA-256</dt>
              <dd>
                <code id={`${id}-sha`} className="download-card__hash">
                  {file.sha256}
                </code>
                <CopyButton targetId={`${id}-sha`} label={file.copyLabel} />
              </dd>
            </div>
          )}
        </dl>
      )}
      <div className="download-card__action">
        <ReleaseActions release={release} onEdit={onEdit} onDelete={onDelete} onDownloaded={onDownloaded} />
      </div>
    </article>
  );
}

function AdminReleaseTable({ releases, staticBodies, onEdit, onDelete, onDownloaded }: ListProps) {
  const id = useId();
  return (
    <section className="previous-releases" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Previous Releases</h2>
      <div className="table-scroll" tabIndex={0} role="region" aria-labelledby={`${id}-title`}>
        <table className="releases-table releases-table--admin">
          <thead>
            <tr>
              {PREVIOUS_RELEASES_COLUMNS.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
              <th scope="col">Downloads</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {releases.map((release) => (
              <tr key={release.id} data-admin-release-id={release.id}>
                <th scope="row">{release.title}</th>
                <td data-label="Version">{shownVersion(release.release)}</td>
                <td data-label="Description">
                  <ReleaseBody release={release} staticBodies={staticBodies} compact />
                </td>
                <td data-label="Downloads" data-download-count>
                  {release.download_count ?? 0}
                </td>
                <td data-label="Actions">
                  <ReleaseActions release={release} onEdit={onEdit} onDelete={onDelete} onDownloaded={onDownloaded} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export function AdminReleaseList({ releases, staticBodies, onEdit, onDelete, onDownloaded }: ListProps) {
  const cards = releases.filter((release) => release.downloadable === 1);
  const previous = releases.filter((release) => release.downloadable !== 1);
  return (
    <div className="admin-releases">
      {cards.length > 0 && (
        <div className="download-cards">
          {cards.map((release) => (
            <AdminReleaseCard key={release.id} release={release} staticBodies={staticBodies} onEdit={onEdit} onDelete={onDelete} onDownloaded={onDownloaded} />
          ))}
        </div>
      )}
      {previous.length > 0 && (
        <AdminReleaseTable releases={previous} staticBodies={staticBodies} onEdit={onEdit} onDelete={onDelete} onDownloaded={onDownloaded} />
      )}
      {releases.length === 0 && <p className="empty-note">No releases yet: add one with the form above.</p>}
    </div>
  );
}
