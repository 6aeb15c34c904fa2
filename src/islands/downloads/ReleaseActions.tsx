// Edit, Delete and Download for one release (docs/product/downloads.md#downloads-page: per row of the table and, here, per card too).
// Download uses the same two ways as readers get (src/scripts/release-download.ts); admins may download
// any release that has a file, downloadable or not (docs/product/roles.md).
import { useState } from 'react';
import { downloadErrorMessage, downloadRelease, fileUrl, prefersNativeDownload } from '../../scripts/release-download.ts';
import type { Release } from '../../lib/api/downloads.ts';

interface ReleaseActionsProps {
  release: Release;
  onEdit: (release: Release) => void;
  onDelete: (release: Release) => void;
  /** After a completed download, so the count can be read again. */
  onDownloaded: () => void;
}

export function ReleaseActions({ release, onEdit, onDelete, onDownloaded }: ReleaseActionsProps) {
  const [error, setError] = useState('');
  const [downloading, setDownloading] = useState(false);

  const download = async (button: HTMLButtonElement) => {
    if (downloading || !release.filename) return;
    setDownloading(true);
    setError('');
    try {
      await downloadRelease({ id: release.id, filename: release.filename, size: release.size });
      onDownloaded();
    } catch (failure) {
      setError(downloadErrorMessage(failure));
    } finally {
      setDownloading(false);
      // The loading modal held focus while it was open.
      button.focus();
    }
  };

  return (
    <div className="release-actions">
      <div className="release-actions__buttons">
        <button type="button" className="button button--small" onClick={() => onEdit(release)} aria-label={`Edit ${release.title}`}>
          Edit
        </button>
        <button type="button" className="button button--small button--danger" onClick={() => onDelete(release)} aria-label={`Delete ${release.title}`}>
          Delete
        </button>
        {release.has_file &&
          release.filename &&
          (prefersNativeDownload(release.size) ? (
            <a
              className="button button--small button--secondary"
              href={fileUrl(release.id)}
              download={release.filename}
              aria-label={`Download ${release.title}`}
            >
              Download
            </a>
          ) : (
            <button
              type="button"
              className="button button--small button--secondary"
              onClick={(event) => void download(event.currentTarget)}
              aria-disabled={downloading || undefined}
              aria-label={`Download ${release.title}`}
            >
              Download
            </button>
          ))}
      </div>
      <p className="release-actions__error" role="alert">
        {error}
      </p>
    </div>
  );
}
