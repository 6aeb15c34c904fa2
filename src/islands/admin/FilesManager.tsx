// The files manager of the post form (SPEC.md 2.5, 5; issue 5 item 4): upload a file with a description
// (progress in the loading overlay), the library as a table, tick and delete (nothing is sent unless one
// is ticked), download. Files still attached to a post are refused by the server with a message naming it.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { formatBytes, formatDate } from '../../lib/format.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { Message } from '../ui/Message.tsx';
import type { FormMessage } from '../ui/form-errors.ts';
import { deleteFiles, downloadFile, uploadFile, type ExtraFile, type Namespace } from './content-api.ts';
import { failureNotice, successNotice } from './notices.ts';
import { FILE_NOT_SELECTED, NOTHING_SELECTED } from './PageImageManager.tsx';
import { HARD_DELETE_WARNING, type Confirm } from '../ui/use-confirm.tsx';
import { withTicked } from './RefusedDeletions.tsx';

interface FilesManagerProps {
  ns: Namespace;
  open: boolean;
  onClose: () => void;
  files: ExtraFile[];
  /** Reads the library again (the form's file picker shares it). */
  reload: () => Promise<void>;
  confirm: Confirm;
  onWrite: () => void;
}

export function FilesManager(props: FilesManagerProps) {
  // The dialog renders its content only while open, so each opening starts with a fresh notice and ticks.
  return (
    <Dialog title="Files" open={props.open} onClose={props.onClose} size="wide">
      <FilesManagerBody {...props} />
    </Dialog>
  );
}

function FilesManagerBody({ ns, files, reload, confirm, onWrite }: FilesManagerProps) {
  const id = useId();
  const [ticked, setTicked] = useState<ReadonlySet<number>>(new Set());
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileKey, setFileKey] = useState(0);
  const [description, setDescription] = useState('');

  useEffect(() => {
    void reload();
  }, [reload]);

  const tick = (fileId: number, on: boolean) => setTicked((previous) => withTicked(previous, fileId, on));

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setNotice({ text: FILE_NOT_SELECTED, tone: 'error' });
    try {
      const answer = await uploadFile(ns, file, description);
      onWrite();
      setNotice(successNotice(answer, 'File uploaded.'));
      setFile(null);
      setFileKey((key) => key + 1);
      setDescription('');
      await reload();
    } catch (error) {
      setNotice(failureNotice(error));
    }
  };

  const remove = async () => {
    const ids = files.filter((entry) => ticked.has(entry.id)).map((entry) => entry.id);
    // SPEC.md 5: delete acts only when at least one file is ticked.
    if (ids.length === 0) return setNotice({ text: NOTHING_SELECTED, tone: 'error' });
    const names = files.filter((entry) => ticked.has(entry.id)).map((entry) => `"${entry.filename}"`);
    if (!(await confirm({ title: 'Delete files', message: `Delete ${names.join(', ')}? ${HARD_DELETE_WARNING}`, confirmLabel: 'Delete' }))) return;
    try {
      const answer = await deleteFiles(ns, ids);
      onWrite();
      setNotice(successNotice(answer, 'Files deleted.'));
      setTicked(new Set());
    } catch (error) {
      setNotice(failureNotice(error));
    }
    await reload();
  };

  const download = async (entry: ExtraFile, button: HTMLButtonElement) => {
    try {
      await downloadFile(ns, entry);
    } catch (error) {
      setNotice(failureNotice(error));
    } finally {
      // The loading modal held focus during the transfer.
      button.focus();
    }
  };

  return (
    <div className="files-manager">
      <Message message={notice} id={`${id}-notice`} />
      <form className="files-manager__upload" onSubmit={(event) => void upload(event)} noValidate>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-file`}>
            File
          </label>
          <input
            key={fileKey}
            id={`${id}-file`}
            className="field__control field__control--file"
            type="file"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            data-autofocus=""
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-description`}>
            Description
          </label>
          <input id={`${id}-description`} className="field__control" value={description} maxLength={1000} onChange={(event) => setDescription(event.target.value)} />
        </div>
        <button type="submit" className="button">
          Upload
        </button>
      </form>
      {files.length === 0 ? (
        <p className="empty-note">No files yet.</p>
      ) : (
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
              {files.map((entry) => (
                <tr key={entry.id}>
                  <td data-label="Select">
                    <input type="checkbox" checked={ticked.has(entry.id)} onChange={(event) => tick(entry.id, event.target.checked)} aria-label={`Select ${entry.filename}`} />
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
      )}
      <p className="files-manager__actions">
        <button type="button" className="button button--danger" onClick={() => void remove()}>
          Delete selected
        </button>
      </p>
    </div>
  );
}
