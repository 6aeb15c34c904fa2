// The admin's view of the releases, from the API rather than the static page (which lags behind each
// write until the publish is live): the same cards and Previous Releases table readers get, plus each
// release's completed-download count (issue 6 item 5) and Edit, Delete and Download. How a release reads is
// defined once, in src/lib/release-markup.ts, which the static markup uses too; a release of issue 25 shows
// its facts and its files through ReleaseFileList, the very component the static page renders, with a
// Download per file here.
import { useId } from 'react';
import {
  displayedVersion,
  fileDownloadLabel,
  PREVIOUS_RELEASES_COLUMNS,
  releaseCardClass,
  releaseFileFacts,
  usesReleaseFeatures,
} from '../../lib/release-markup.ts';
import { CopyButton } from '../ui/CopyButton.tsx';
import { DownloadControl } from './DownloadControl.tsx';
import { ReleaseActions } from './ReleaseActions.tsx';
import { FileFacts, ReleaseFacts, ReleaseFileList } from './ReleaseFileList.tsx';
import { ReleaseBody, type StaticBodies } from './ReleaseBody.tsx';
import type { Release } from '../../lib/api/downloads.ts';
import { TableScroll } from '../ui/TableScroll.tsx';

interface ListProps {
  releases: Release[];
  staticBodies: StaticBodies;
  onEdit: (release: Release) => void;
  onDelete: (release: Release) => void;
  onDownloaded: () => void;
  /** The license types giving each entitlement code, to say a gate in words. */
  gateTypeNames: (code: string) => readonly string[];
}

type ItemProps = Omit<ListProps, 'releases'> & { release: Release };

/** A release's files with a Download each (admins may download every file). */
function AdminFileList({
  release,
  idPrefix,
  compact = false,
  onDownloaded,
}: {
  release: Release;
  idPrefix: string;
  compact?: boolean;
  onDownloaded: () => void;
}) {
  return (
    <ReleaseFileList
      files={release.files}
      title={release.title}
      idPrefix={idPrefix}
      compact={compact}
      renderAction={(file) => (
        <DownloadControl
          target={{ id: release.id, filename: file.name, size: file.size, fileUrl: file.url }}
          label={fileDownloadLabel(release.title, file)}
          onDownloaded={onDownloaded}
        />
      )}
      renderCopy={(targetId, label) => <CopyButton targetId={targetId} label={label} />}
    />
  );
}

function countText(release: Release): string {
  const count = release.download_count ?? 0;
  return `${count} ${count === 1 ? 'download' : 'downloads'}`;
}

function AdminReleaseCard({ release, staticBodies, onEdit, onDelete, onDownloaded, gateTypeNames }: ItemProps) {
  const id = useId();
  const version = displayedVersion(release);
  const file = releaseFileFacts(release);
  const perFile = usesReleaseFeatures(release);
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
      {perFile && <ReleaseFacts release={release} gateTypeNames={release.entitlement ? gateTypeNames(release.entitlement) : []} />}
      <ReleaseBody release={release} staticBodies={staticBodies} />
      {perFile && <AdminFileList release={release} idPrefix={id} onDownloaded={onDownloaded} />}
      {!perFile && file && (
        <FileFacts
          name={file.filename}
          size={file.size}
          sha256={file.sha256}
          shaId={`${id}-sha`}
          copy={(targetId, label) => <CopyButton targetId={targetId} label={label} />}
        />
      )}
      <div className="download-card__action">
        <ReleaseActions release={release} onEdit={onEdit} onDelete={onDelete} onDownloaded={onDownloaded} perFile={perFile} />
      </div>
    </article>
  );
}

function AdminReleaseTable({ releases, staticBodies, onEdit, onDelete, onDownloaded }: Omit<ListProps, 'gateTypeNames'>) {
  const id = useId();
  return (
    <section className="previous-releases" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Previous Releases</h2>
      <TableScroll label="Previous releases table">
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
                <td data-label="Version">{displayedVersion(release)}</td>
                <td data-label="Description">
                  <ReleaseBody release={release} staticBodies={staticBodies} compact />
                  {release.files.length > 0 && usesReleaseFeatures(release) && (
                    <AdminFileList release={release} idPrefix={`${id}-${release.id}`} compact onDownloaded={onDownloaded} />
                  )}
                </td>
                <td data-label="Downloads" data-download-count>
                  {release.download_count ?? 0}
                </td>
                <td data-label="Actions">
                  <ReleaseActions release={release} onEdit={onEdit} onDelete={onDelete} onDownloaded={onDownloaded} perFile={usesReleaseFeatures(release)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

export function AdminReleaseList({ releases, staticBodies, onEdit, onDelete, onDownloaded, gateTypeNames }: ListProps) {
  const cards = releases.filter((release) => release.downloadable === 1);
  const previous = releases.filter((release) => release.downloadable !== 1);
  return (
    <div className="admin-releases">
      {cards.length > 0 && (
        <div className="download-cards">
          {cards.map((release) => (
            <AdminReleaseCard
              key={release.id}
              release={release}
              staticBodies={staticBodies}
              onEdit={onEdit}
              onDelete={onDelete}
              onDownloaded={onDownloaded}
              gateTypeNames={gateTypeNames}
            />
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
