// The admin's add/edit form at the top of the downloads page (docs/product/downloads.md#downloads-page, docs/product/data-model.md#download-item, docs/product/messages.md#validation): title,
// body, release, is_current, downloadable and file, with the first server error under each field and the
// server's message as the notice above the buttons. The owner remounts it (a new key) to switch between
// create and edit mode, so every mode starts from the release's values and no stale errors.
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { ApiError } from '../../lib/api/client.ts';
import { Field } from '../ui/Field.tsx';
import { Message } from '../ui/Message.tsx';
import { SubmitButton } from '../ui/SubmitButton.tsx';
import { CONNECTION_ERROR, firstFieldErrors, type FieldErrors, type FormMessage } from '../ui/form-errors.ts';
import { FileField, FlagField } from './ReleaseFormControls.tsx';
import { RELEASE_FIELDS } from './release-rules.ts';
import type { Release, ReleaseInput } from '../../lib/api/downloads.ts';

export type FormFocus = 'title' | 'notice' | null;

interface ReleaseFormProps {
  editing: Release | null;
  notice: FormMessage | null;
  /** The notice's element id: the owner focuses it after a delete. */
  noticeId: string;
  /** Where focus goes when this form appears: the title after choosing Edit, the notice after a save. */
  focusOnMount: FormFocus;
  onNotice: (notice: FormMessage | null) => void;
  /** Sends the release; resolves once saved (the owner shows the message), rejects with an ApiError. */
  onSave: (id: number | null, input: ReleaseInput) => Promise<void>;
  onCancelEdit: () => void;
}

function failureNotice(error: unknown): string {
  if (!(error instanceof ApiError)) return CONNECTION_ERROR;
  return error.body.message ?? error.message;
}

export function ReleaseForm({ editing, notice, noticeId, focusOnMount, onNotice, onSave, onCancelEdit }: ReleaseFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const headingId = useId();
  const [title, setTitle] = useState(editing?.title ?? '');
  const [body, setBody] = useState(editing?.body ?? '');
  const [release, setRelease] = useState(editing?.release ?? '');
  const [isCurrent, setIsCurrent] = useState(editing ? editing.is_current === 1 : false);
  const [downloadable, setDownloadable] = useState(editing ? editing.downloadable === 1 : true);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [failures, setFailures] = useState(0);

  useEffect(() => {
    const form = formRef.current;
    if (!form || !focusOnMount) return;
    if (focusOnMount === 'title') {
      form.scrollIntoView({ block: 'start' });
      form.querySelector<HTMLElement>('input[name="title"]')?.focus();
    } else {
      document.getElementById(noticeId)?.focus();
    }
    // Only when this form (mode) first appears.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // After a failed save, once React has rendered the errors: the first invalid field, else the notice, so
  // keyboard and screen-reader users land on the problem.
  useEffect(() => {
    if (failures === 0) return;
    const invalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (invalid ?? document.getElementById(noticeId))?.focus();
  }, [failures, noticeId]);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setErrors({});
    onNotice(null);
    try {
      await onSave(editing?.id ?? null, { title, body, release, is_current: isCurrent, downloadable, file });
    } catch (error) {
      const fieldErrors = firstFieldErrors(error, RELEASE_FIELDS);
      // Over the size limit is the file's fault, so say it under the file too.
      if (error instanceof ApiError && error.status === 413 && !fieldErrors.file) fieldErrors.file = failureNotice(error);
      setErrors(fieldErrors);
      onNotice({ text: failureNotice(error), tone: 'error' });
      setFailures((count) => count + 1);
    } finally {
      setBusy(false);
    }
  };

  const fileHint = editing?.filename ? `Leave empty to keep ${editing.filename}.` : 'Required when the release is downloadable.';

  return (
    <form ref={formRef} className="form release-form" onSubmit={(event) => void submit(event)} noValidate aria-labelledby={headingId}>
      <h2 id={headingId} className="release-form__title">
        {editing ? `Edit release: ${editing.title}` : 'Add a release'}
      </h2>
      <div className="form-grid">
        <Field label="Title" name="title" value={title} onChange={setTitle} error={errors.title} />
        <Field label="Release" name="release" value={release} onChange={setRelease} error={errors.release} hint="The version shown on the page; 0 or empty hides it." />
        <div className="field--full">
          <Field label="Body" name="body" value={body} onChange={setBody} error={errors.body} multiline hint="Markdown." />
        </div>
        <FlagField label="Current release" name="is_current" checked={isCurrent} onChange={setIsCurrent} error={errors.is_current} hint="Listed first; only one release is current." />
        <FlagField
          label="Downloadable"
          name="downloadable"
          checked={downloadable}
          onChange={setDownloadable}
          error={errors.downloadable}
          hint="A card verified users can download; otherwise listed under Previous Releases."
        />
        <div className="field--full">
          <FileField label="File" name="file" onChange={setFile} error={errors.file} hint={fileHint} />
        </div>
      </div>
      <div className="release-form__notice" id={noticeId} tabIndex={-1}>
        <Message message={notice} />
      </div>
      <div className="form__actions">
        <SubmitButton label={editing ? 'Update Release' : 'Add Release'} busyLabel={busy ? 'Saving…' : undefined} />
        {editing && (
          <button type="button" className="button button--secondary" onClick={onCancelEdit}>
            New Release
          </button>
        )}
      </div>
    </form>
  );
}
