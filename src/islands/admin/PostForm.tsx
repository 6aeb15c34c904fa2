// The post form (SPEC.md 2.5, 4, 5): section picker, title, markdown body with toolbar, image manager and
// live preview, the file offered for download (or No file) with the files manager, published, display
// order, submit; in edit mode a New Post button returns to create mode. Errors for title, body and order
// (and the pickers) show under their fields, the server's message as a notice.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Checkbox, Field } from '../ui/Field.tsx';
import { Message } from '../ui/Message.tsx';
import { SubmitButton } from '../ui/SubmitButton.tsx';
import type { FieldErrors, FormMessage } from '../ui/form-errors.ts';
import { savePost, type ExtraFile, type Namespace, type Post, type Section } from './content-api.ts';
import { FilesManager } from './FilesManager.tsx';
import { MarkdownEditor, type MarkdownEditorHandle } from './MarkdownEditor.tsx';
import { formFailure } from './notices.ts';
import { PageImageManager } from './PageImageManager.tsx';
import { sectionOptionLabel } from './SectionPanel.tsx';
import type { Confirm } from '../ui/use-confirm.tsx';

const FIELDS = ['title', 'body', 'order', 'section_id', 'uploaded_file_id', 'published'] as const;

interface PostFormProps {
  ns: Namespace;
  sections: Section[];
  files: ExtraFile[];
  reloadFiles: () => Promise<void>;
  /** The post being edited, or null in create mode. */
  editing: Post | null;
  /** The section a new post goes to unless the admin picks another. */
  defaultSectionId: number | null;
  onSaved: (post: Post, message: string) => Promise<void> | void;
  onNewPost: () => void;
  onClose: () => void;
  confirm: Confirm;
  onWrite: () => void;
}

export function PostForm({ ns, sections, files, reloadFiles, editing, defaultSectionId, onSaved, onNewPost, onClose, confirm, onWrite }: PostFormProps) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const editor = useRef<MarkdownEditorHandle>(null);
  const [sectionId, setSectionId] = useState<string>(String(editing?.section_id ?? defaultSectionId ?? sections[0]?.id ?? ''));
  const [title, setTitle] = useState(editing?.title ?? '');
  const [body, setBody] = useState(editing?.body ?? '');
  const [fileId, setFileId] = useState<string>(editing?.uploaded_file_id ? String(editing.uploaded_file_id) : '');
  const [published, setPublished] = useState(editing ? editing.published === 1 : false);
  const [order, setOrder] = useState(String(editing?.display_order ?? 0));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const [busy, setBusy] = useState(false);
  // Counts refused submits: after each, once the error state is on the page, focus goes to the first
  // field marked invalid (keyboard and screen-reader users land on the problem).
  const [refusals, setRefusals] = useState(0);

  useEffect(() => {
    if (refusals > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);
  const [dialog, setDialog] = useState<'images' | 'files' | null>(null);

  // Opened by Add Post, Edit or New Post: the form comes into view with the title focused.
  useEffect(() => {
    const field = formRef.current?.querySelector<HTMLElement>('[data-autofocus]');
    formRef.current?.closest('section')?.scrollIntoView({ block: 'start' });
    field?.focus({ preventScroll: true });
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const answer = await savePost(ns, editing?.id ?? null, {
        title,
        body,
        section_id: sectionId === '' ? null : Number(sectionId),
        uploaded_file_id: fileId === '' ? null : Number(fileId),
        published,
        display_order: order,
      });
      onWrite();
      setErrors({});
      setNotice(null);
      await onSaved(answer.post, answer.message);
    } catch (error) {
      const failure = formFailure(error, FIELDS);
      setErrors(failure.errors);
      setNotice(failure.notice);
      setRefusals((count) => count + 1);
    } finally {
      setBusy(false);
    }
  };

  const headingId = `${id}-heading`;
  return (
    <section className="post-form" aria-labelledby={headingId} data-post-form={editing ? 'edit' : 'create'}>
      <div className="post-form__head">
        <h2 className="post-form__title" id={headingId}>
          {editing ? `Edit post: ${editing.title}` : 'New post'}
        </h2>
        {editing && (
          <button type="button" className="button button--secondary button--small" onClick={onNewPost}>
            New Post
          </button>
        )}
      </div>
      <form ref={formRef} className="form" onSubmit={(event) => void submit(event)} noValidate>
        <div className={errors.section_id ? 'field field--invalid' : 'field'}>
          <label className="field__label" htmlFor={`${id}-section`}>
            Section
          </label>
          <select
            id={`${id}-section`}
            className="field__control"
            value={sectionId}
            onChange={(event) => setSectionId(event.target.value)}
            aria-invalid={errors.section_id ? true : undefined}
          >
            {sections.length === 0 && <option value="">No sections yet: add one first</option>}
            {sections.map((section) => (
              <option key={section.id} value={section.id}>
                {sectionOptionLabel(section)}
              </option>
            ))}
          </select>
          {errors.section_id && <p className="field__error">{errors.section_id}</p>}
        </div>
        <Field label="Title" name="title" value={title} onChange={setTitle} error={errors.title} autoFocusOnOpen />
        <MarkdownEditor ref={editor} label="Body" name="body" value={body} onChange={setBody} error={errors.body} onOpenImages={() => setDialog('images')} />
        <div className="post-form__row">
          <div className={errors.uploaded_file_id ? 'field field--invalid post-form__file' : 'field post-form__file'}>
            <label className="field__label" htmlFor={`${id}-file`}>
              File for download
            </label>
            <select
              id={`${id}-file`}
              className="field__control"
              value={fileId}
              onChange={(event) => setFileId(event.target.value)}
              aria-invalid={errors.uploaded_file_id ? true : undefined}
            >
              <option value="">No file</option>
              {files.map((file) => (
                <option key={file.id} value={file.id}>
                  {file.description ? `${file.filename} – ${file.description}` : file.filename}
                </option>
              ))}
            </select>
            {errors.uploaded_file_id && <p className="field__error">{errors.uploaded_file_id}</p>}
          </div>
          <button type="button" className="button button--secondary post-form__files" onClick={() => setDialog('files')} aria-haspopup="dialog">
            Files…
          </button>
        </div>
        <div className="post-form__row">
          <Checkbox label="Published" name="published" checked={published} onChange={setPublished} />
          <div className="post-form__order">
            <Field label="Display order" name="display_order" value={order} onChange={setOrder} error={errors.order} inputMode="numeric" />
          </div>
        </div>
        <Message message={notice} id={`${id}-notice`} />
        <p className="form__actions">
          <SubmitButton label={editing ? 'Update post' : 'Save post'} busyLabel={busy ? 'Saving…' : undefined} />
          <button type="button" className="button button--secondary" onClick={onClose}>
            Close
          </button>
        </p>
      </form>
      <PageImageManager
        ns={ns}
        open={dialog === 'images'}
        onClose={() => setDialog(null)}
        onInsert={(blocks) => {
          setDialog(null);
          // After the dialog has given focus back, so the insertion lands where the cursor was.
          requestAnimationFrame(() => editor.current?.insertBlock(blocks.join('\n\n')));
        }}
        onUrlsReplaced={(pairs) => setBody((text) => pairs.reduce((result, [from, to]) => result.split(from).join(to), text))}
        confirm={confirm}
        onWrite={onWrite}
      />
      <FilesManager ns={ns} open={dialog === 'files'} onClose={() => setDialog(null)} files={files} reload={reloadFiles} confirm={confirm} onWrite={onWrite} />
    </section>
  );
}
