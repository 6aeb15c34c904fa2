// The files manager of the post form (docs/content-api.md, 'Extra files'): the namespace's media library
// of files, uploaded with a description and shown as a table with Download. Delete acts only on ticked
// files; files still attached to a post are refused by the server with a message naming it.
import { useId, useState } from 'react';
import { deleteFiles, fetchFiles, uploadFile, type ExtraFile } from '../../lib/api/files.ts';
import type { Namespace } from '../../../common/snapshot-types.ts';
import { FilesTable } from './media/FilesTable.tsx';
import { inMediaDialog, type MediaManagerProps } from './media/MediaDialog.tsx';
import type { MediaTexts } from './media/media-library-actions.ts';
import { MediaLibrary } from './media/MediaLibrary.tsx';
import { UploadForm } from './media/UploadForm.tsx';
import { useMediaLibrary } from './media/use-media-library.ts';

const TEXTS: MediaTexts<ExtraFile> = {
  deleted: 'Files deleted.',
  deleteTitle: 'Delete files',
  deleteQuestion: (files) => `Delete ${files.map((file) => `"${file.filename}"`).join(', ')}?`,
  loadFailed: 'Could not load the files',
};

interface FilesManagerProps extends MediaManagerProps {
  ns: Namespace;
  /** Reads the form's copy of the library again (its file picker offers the files). */
  reload: () => Promise<void>;
}

function FilesLibrary({ ns, reload, confirm, onWrite }: FilesManagerProps) {
  const id = useId();
  const [description, setDescription] = useState('');
  const library = useMediaLibrary<ExtraFile>({
    source: { list: () => fetchFiles(ns), remove: (ids) => deleteFiles(ns, ids), forceable: false },
    texts: TEXTS,
    confirm,
    afterWrite: async () => {
      onWrite();
      await reload();
    },
  });

  const upload = async (file: File | null) => {
    const stored = await library.upload(file, (chosen) => uploadFile(ns, chosen, description), 'File uploaded.');
    if (stored) setDescription('');
    return stored;
  };

  const form = (
    <UploadForm fileLabel="File" className="files-manager__upload" stacked onUpload={upload}>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-description`}>
          Description
        </label>
        <input
          id={`${id}-description`}
          className="field__control"
          value={description}
          maxLength={1000}
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
    </UploadForm>
  );

  return (
    <MediaLibrary library={library} block="files-manager" adders={form} actionsBelow>
      <FilesTable ns={ns} library={library} />
    </MediaLibrary>
  );
}

export const FilesManager = inMediaDialog('Files', FilesLibrary);
