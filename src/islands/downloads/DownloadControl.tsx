// One Download control in an island (the admin's list, the dashboard's "My software"): the two ways of
// src/scripts/release-download.ts by size, the server's words under it when it fails, and focus back on the
// button once the loading modal has closed. The static page builds the same control without React
// (src/scripts/downloads-page.ts).
import { useState } from 'react';
import { downloadErrorMessage, downloadRelease, fileUrl, prefersNativeDownload, type DownloadTarget } from '../../scripts/release-download.ts';

interface DownloadControlProps {
  target: DownloadTarget;
  /** The accessible name: "Download Gauge Studio for Windows x64". */
  label: string;
  className?: string;
  /** After a completed download (the admin's count is read again). */
  onDownloaded?: () => void;
}

export function DownloadControl({ target, label, className = 'button button--small button--secondary', onDownloaded }: DownloadControlProps) {
  const [error, setError] = useState('');
  const [downloading, setDownloading] = useState(false);

  const download = async (button: HTMLButtonElement) => {
    if (downloading) return;
    setDownloading(true);
    setError('');
    try {
      await downloadRelease(target);
      onDownloaded?.();
    } catch (failure) {
      setError(downloadErrorMessage(failure));
    } finally {
      setDownloading(false);
      // The loading modal held focus while it was open.
      button.focus();
    }
  };

  return (
    <span className="download-control">
      {prefersNativeDownload(target.size) ? (
        <a className={className} href={fileUrl(target.id, target.fileUrl)} download={target.filename} aria-label={label}>
          Download
        </a>
      ) : (
        <button
          type="button"
          className={className}
          onClick={(event) => void download(event.currentTarget)}
          aria-disabled={downloading || undefined}
          aria-label={label}
        >
          Download
        </button>
      )}
      <span className="download-action__error" role="alert">
        {error}
      </span>
    </span>
  );
}
