// The extra files of a namespace as a table: tick, name, description, size, upload date, the posts that
// offer it, and Download (through the same permission-checked endpoint readers use).
import { downloadFile, type ExtraFile } from '../../../lib/api/files.ts';
import type { Namespace } from '../../../../common/snapshot-types.ts';
import { formatBytes, formatDate } from '../../../lib/format.ts';
import { failureNotice } from '../notices.ts';
import type { MediaLibrary } from './use-media-library.ts';

export function FilesTable({ ns, library }: { ns: Namespace; library: MediaLibrary<ExtraFile> }) {
  if (library.items.length === 0) return <p className="empty-note">No files yet.</p>;

  const download = async (entry: ExtraFile, button: HTMLButtonElement) => {
    try {
      await downloadFile(ns, entry);
    } catch (error) {
      library.showNotice(failureNotice(error));
    } finally {
      // The loading modal held focus during the transfer.
      button.focus();
    }
  };

  return (
    <div className="files-manager__table-wrap">
      <table className="files-table">
        <caption className="sr-only">Files for download</caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="sr-only">Selected</span>
            </th>
            <th scope="col">File</th>
            <th scope="col">Description</th>
            <th scope="col">Size</th>
            <th scope="col">Uploaded</th>
            <th scope="col">Attached to</th>
            <th scope="col">
              <span className="sr-only">Download</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {library.items.map((entry) => (
            <tr key={entry.id}>
              <td data-label="Select">
                <input
                  type="checkbox"
                  checked={library.selected.has(entry.id)}
                  onChange={(event) => library.toggle(entry.id, event.target.checked)}
                  aria-label={`Select ${entry.filename}`}
                />
              </td>
              <td data-label="File" className="files-table__name">
                {entry.filename}
              </td>
              <td data-label="Description">{entry.description}</td>
              <td data-label="Size">{formatBytes(entry.size)}</td>
              <td data-label="Uploaded">{formatDate(entry.created_at) ?? ''}</td>
              <td data-label="Attached to">{entry.posts.length === 0 ? '–' : entry.posts.map((post) => post.title).join(', ')}</td>
              <td>
                <button
                  type="button"
                  className="button button--small button--secondary"
                  onClick={(event) => void download(entry, event.currentTarget)}
                  aria-label={`Download ${entry.filename}`}
                >
                  Download
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
