// Edit, Delete and Download for one release (docs/product/downloads.md#downloads-page: per row of the table and, here, per card too).
// Download uses the same two ways as readers get (src/scripts/release-download.ts); admins may download
// any release that has a file, downloadable or not (docs/product/roles.md). A release with files per
// platform (issue 25) has a Download per file in its file list instead.
import type { Release } from '../../lib/api/downloads.ts';
import { DownloadControl } from './DownloadControl.tsx';

interface ReleaseActionsProps {
  release: Release;
  onEdit: (release: Release) => void;
  onDelete: (release: Release) => void;
  /** After a completed download, so the count can be read again. */
  onDownloaded: () => void;
  /** The release's files have their own Download buttons. */
  perFile?: boolean;
}

export function ReleaseActions({ release, onEdit, onDelete, onDownloaded, perFile = false }: ReleaseActionsProps) {
  return (
    <div className="release-actions">
      <div className="release-actions__buttons">
        <button type="button" className="button button--small" onClick={() => onEdit(release)} aria-label={`Edit ${release.title}`}>
          Edit
        </button>
        <button type="button" className="button button--small button--danger" onClick={() => onDelete(release)} aria-label={`Delete ${release.title}`}>
          Delete
        </button>
        {!perFile && release.has_file && release.filename && (
          <DownloadControl
            target={{ id: release.id, filename: release.filename, size: release.size }}
            label={`Download ${release.title}`}
            onDownloaded={onDownloaded}
          />
        )}
      </div>
    </div>
  );
}
