// The admin's add/edit form at the top of the downloads page (docs/product/downloads.md#downloads-page, docs/product/data-model.md#download-item, docs/product/messages.md#validation): title,
// body, release, version, channel, release date, entitlement (issue 25), is_current, downloadable and file, with the first server error under each field and the
// server's message as the notice above the buttons. The owner remounts it (a new key) to switch between
// create and edit mode, so every mode starts from the release's values and no stale errors. The body is
// edited with the one markdown editor of posts and home sections (toolbar and live preview).
import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { Field } from '../ui/Field.tsx';
import { MarkdownEditor } from '../admin/MarkdownEditor.tsx';
import { Message } from '../ui/Message.tsx';
import { SubmitButton } from '../ui/SubmitButton.tsx';
import type { FieldErrors, FormMessage } from '../ui/form-errors.ts';
import { useFormSubmit } from '../ui/use-form-submit.ts';
import { FileField, FlagField } from './ReleaseFormControls.tsx';
import { ReleaseGateFields, type KnownEntitlement } from './ReleaseGateFields.tsx';
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
  /** Suggestions for the entitlement field, from the license types. */
  entitlements: readonly KnownEntitlement[];
}

function inputOf(editing: Release | null): ReleaseInput {
  return {
    title: editing?.title ?? '',
    body: editing?.body ?? '',
    release: editing?.release ?? '',
    is_current: editing ? editing.is_current === 1 : false,
    downloadable: editing ? editing.downloadable === 1 : true,
    version: editing?.version ?? '',
    channel: editing?.channel ?? 'stable',
    // The date input holds a day; the stored instant's day (UTC) is what the server compares.
    released_at: editing ? editing.released_at.slice(0, 10) : '',
    entitlement: editing?.entitlement ?? '',
    file: null,
  };
}

/**
 * The date input holds only the day: sending an unchanged day would move the stored instant to midnight on
 * every edit (and with it the order of releases), so an edit sends the date only when it was changed; an
 * empty field leaves it as it is.
 */
function withDateIfChanged(input: ReleaseInput, editing: Release | null): ReleaseInput {
  return editing && input.released_at === inputOf(editing).released_at ? { ...input, released_at: '' } : input;
}

/** Only when this form (mode) first appears: the title after Edit, the notice after a save. */
function useFocusOnMount(form: RefObject<HTMLFormElement | null>, focus: FormFocus, noticeId: string): void {
  useEffect(() => {
    const element = form.current;
    if (!element || !focus) return;
    if (focus === 'title') {
      element.scrollIntoView({ block: 'start' });
      element.querySelector<HTMLElement>('input[name="title"]')?.focus();
    } else {
      document.getElementById(noticeId)?.focus();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

interface ReleaseFieldsProps {
  editing: Release | null;
  input: ReleaseInput;
  onChange: (change: Partial<ReleaseInput>) => void;
  errors: FieldErrors;
  entitlements: readonly KnownEntitlement[];
}

function ReleaseFields({ editing, input, onChange, errors, entitlements }: ReleaseFieldsProps) {
  const fileHint = editing?.filename ? `Leave empty to keep ${editing.filename}.` : 'Required when the release is downloadable.';
  return (
    <div className="form-grid">
      <Field label="Title" name="title" value={input.title} onChange={(title) => onChange({ title })} error={errors.title} />
      <Field
        label="Release"
        name="release"
        value={input.release}
        onChange={(release) => onChange({ release })}
        error={errors.release}
        hint="The version shown on the page; 0 or empty hides it."
      />
      <ReleaseGateFields input={input} onChange={onChange} errors={errors} entitlements={entitlements} />
      <div className="field--full">
        <MarkdownEditor label="Body" name="body" value={input.body} onChange={(body) => onChange({ body })} error={errors.body} rows={8} />
      </div>
      <FlagField
        label="Current release"
        name="is_current"
        checked={input.is_current}
        onChange={(is_current) => onChange({ is_current })}
        error={errors.is_current}
        hint="Listed first; only one release is current."
      />
      <FlagField
        label="Downloadable"
        name="downloadable"
        checked={input.downloadable}
        onChange={(downloadable) => onChange({ downloadable })}
        error={errors.downloadable}
        hint="A card verified users can download; otherwise listed under Previous Releases."
      />
      <div className="field--full">
        <FileField label="File" name="file" onChange={(file) => onChange({ file })} error={errors.file} hint={fileHint} />
      </div>
    </div>
  );
}

/** Over the size limit is the file's fault, so the message goes under the file too. */
const blameFileFor413 = (status: number) => (status === 413 ? 'file' : undefined);

export function ReleaseForm({ editing, notice, noticeId, focusOnMount, onNotice, onSave, onCancelEdit, entitlements }: ReleaseFormProps) {
  const headingId = useId();
  const [input, setInput] = useState(() => inputOf(editing));
  // The notice belongs to the owner (it reports deletes too) and always shows the server's message.
  const formRef = useRef<HTMLFormElement>(null);
  const form = useFormSubmit(formRef, {
    fields: RELEASE_FIELDS,
    messageAlways: true,
    statusField: blameFileFor413,
    focusFallback: () => document.getElementById(noticeId),
  });
  useFocusOnMount(formRef, focusOnMount, noticeId);

  const save = async () => {
    if (form.busy) return;
    onNotice(null);
    const failure = await form.run(() => onSave(editing?.id ?? null, withDateIfChanged(input, editing)));
    if (failure) onNotice(failure.message);
  };

  return (
    <form
      ref={formRef}
      className="form release-form"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      noValidate
      aria-labelledby={headingId}
    >
      <h2 id={headingId} className="release-form__title">
        {editing ? `Edit release: ${editing.title}` : 'Add a release'}
      </h2>
      <ReleaseFields
        editing={editing}
        input={input}
        onChange={(change) => setInput((current) => ({ ...current, ...change }))}
        errors={form.errors}
        entitlements={entitlements}
      />
      <div className="release-form__notice" id={noticeId} tabIndex={-1}>
        <Message message={notice} />
      </div>
      <div className="form__actions">
        <SubmitButton label={editing ? 'Update Release' : 'Add Release'} busyLabel={form.busyLabel} />
        {editing && (
          <button type="button" className="button button--secondary" onClick={onCancelEdit}>
            New Release
          </button>
        )}
      </div>
    </form>
  );
}
