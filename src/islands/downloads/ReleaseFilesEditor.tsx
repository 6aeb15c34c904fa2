// The files of the release being edited (issue 25, item 2): the list with Delete (after the one Ok/Cancel
// dialog, as every delete) and a small form to add a file for a platform and architecture, whose upload
// shows its progress in the loading modal like the release form's. It sits after the release form, not
// inside it (forms cannot nest), and works on the stored release at once: no Update Release needed.
import { useId, useRef, useState } from 'react';
import { addReleaseFile, deleteReleaseFile, type Release, type ReleaseArch, type ReleaseFile, type ReleasePlatform } from '../../lib/api/downloads.ts';
import { ARCH_LABELS, PLATFORM_LABELS, platformLabel } from '../../lib/release-markup.ts';
import { SelectField } from '../ui/Field.tsx';
import { serverMessage, type FormMessage } from '../ui/form-errors.ts';
import { Message } from '../ui/Message.tsx';
import { SubmitButton } from '../ui/SubmitButton.tsx';
import { HARD_DELETE_WARNING, type Confirm } from '../ui/use-confirm.tsx';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { FileField } from './ReleaseFormControls.tsx';
import { ReleaseFileList } from './ReleaseFileList.tsx';

const FILE_FIELDS = ['file', 'platform', 'arch'] as const;
const PLATFORM_OPTIONS = Object.entries(PLATFORM_LABELS).map(([value, label]) => ({ value, label }));
const ARCH_OPTIONS = Object.entries(ARCH_LABELS).map(([value, label]) => ({ value, label }));

/** The question before a file goes: which file of which release, and that it cannot be undone. */
export function fileDeleteConfirmation(release: Pick<Release, 'title'>, file: Pick<ReleaseFile, 'name' | 'platform' | 'arch'>): string {
  return `Delete ${file.name} (${platformLabel(file)}) from "${release.title}"? ${HARD_DELETE_WARNING}`;
}

interface ReleaseFilesEditorProps {
  release: Release;
  confirm: Confirm;
  /** Reads the releases again after a change (the list, the cards and this editor follow). */
  onChanged: () => Promise<void>;
}

/** The success message is the form's own, beside its button; the list above is read again first. */
function AddFileForm({ release, onAdded }: { release: Release; onAdded: () => Promise<void> }) {
  const headingId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [platform, setPlatform] = useState<ReleasePlatform>('windows');
  const [arch, setArch] = useState<ReleaseArch>('x64');
  // A new key clears the (uncontrolled) file input after an upload.
  const [inputKey, setInputKey] = useState(0);
  const form = useFormSubmit(formRef, { fields: FILE_FIELDS, statusField: (status) => (status === 413 ? 'file' : undefined) });

  return (
    <form
      ref={formRef}
      className="form release-file-form"
      aria-labelledby={headingId}
      noValidate
      onSubmit={form.onSubmit(async () => {
        // Without a file the server answers which field is missing, in its words (validation at the edge).
        const answer = await addReleaseFile(release.id, { file, platform, arch });
        setFile(null);
        setInputKey((key) => key + 1);
        await onAdded();
        return { text: `${answer.file.name} added for ${platformLabel(answer.file)}.`, tone: 'success' };
      })}
    >
      <h4 id={headingId} className="release-files-editor__subheading">
        Add a file
      </h4>
      <div className="form-grid">
        <div className="field--full">
          <FileField
            key={inputKey}
            label="File to add"
            name="file"
            onChange={setFile}
            error={form.errors.file}
            hint="Uploaded at once; its SHA-256 is computed by the server."
          />
        </div>
        <SelectField
          label="Platform"
          name="platform"
          value={platform}
          onChange={(value) => setPlatform(value as ReleasePlatform)}
          options={PLATFORM_OPTIONS}
          error={form.errors.platform}
        />
        <SelectField
          label="Architecture"
          name="arch"
          value={arch}
          onChange={(value) => setArch(value as ReleaseArch)}
          options={ARCH_OPTIONS}
          error={form.errors.arch}
        />
      </div>
      <Message message={form.message} />
      <div className="form__actions">
        <SubmitButton label="Upload File" busyLabel={form.busyLabel} />
      </div>
    </form>
  );
}

export function ReleaseFilesEditor({ release, confirm, onChanged }: ReleaseFilesEditorProps) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [message, setMessage] = useState<FormMessage | null>(null);

  const remove = async (file: ReleaseFile) => {
    const ok = await confirm({ title: 'Delete file', message: fileDeleteConfirmation(release, file), confirmLabel: 'Delete File' });
    if (!ok) return;
    setMessage(null);
    try {
      const answer = await deleteReleaseFile(release.id, file.id);
      await onChanged();
      setMessage({ text: answer.message, tone: 'success' });
    } catch (error) {
      setMessage({ text: serverMessage(error), tone: 'error' });
    }
    // The pressed Delete button has gone with its file.
    heading.current?.focus();
  };

  return (
    <section className="release-files-editor" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1} className="release-files-editor__title">
        Files of {release.title}
      </h3>
      {release.files.length === 0 ? (
        <p className="empty-note">This release has no file yet.</p>
      ) : (
        <ReleaseFileList
          files={release.files}
          title={release.title}
          idPrefix={`${headingId}-files`}
          renderAction={(file) => (
            <button
              type="button"
              className="button button--small button--danger"
              onClick={() => void remove(file)}
              aria-label={`Delete ${file.name} (${platformLabel(file)})`}
            >
              Delete
            </button>
          )}
        />
      )}
      <Message message={message} />
      <AddFileForm
        release={release}
        onAdded={async () => {
          setMessage(null);
          await onChanged();
        }}
      />
    </section>
  );
}
