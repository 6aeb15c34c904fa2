// The post form (docs/product/reading.md#posts-screens, docs/product/states.md, docs/product/messages.md#validation): section picker, title, markdown body with toolbar, image manager and
// live preview, the file offered for download (or No file) with the files manager, published, display
// order, submit; in edit mode a New Post button returns to create mode. Errors for title, body and order
// (and the pickers) show under their fields, the server's message as a notice (the frame is EditorForm's,
// shared with the home-section form).
import { useRef, useState, type RefObject } from 'react';
import { Checkbox, Field, SelectField } from '../ui/Field.tsx';
import type { Confirm } from '../ui/use-confirm.tsx';
import { savePost, type Namespace, type Post, type Section } from '../../lib/api/posts.ts';
import type { ExtraFile } from '../../lib/api/files.ts';
import { EditorForm, useEditorForm } from './EditorForm.tsx';
import { FilesManager } from './FilesManager.tsx';
import { MarkdownEditor, type MarkdownEditorHandle } from './MarkdownEditor.tsx';
import { PageImageManager } from './PageImageManager.tsx';
import { sectionOptionLabel } from './SectionPanel.tsx';

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

interface PostDraft {
  sectionId: string;
  title: string;
  body: string;
  fileId: string;
  published: boolean;
  order: string;
}

function draftOf(editing: Post | null, sectionId: number | string): PostDraft {
  return {
    sectionId: String(sectionId),
    title: editing?.title ?? '',
    body: editing?.body ?? '',
    fileId: editing?.uploaded_file_id ? String(editing.uploaded_file_id) : '',
    published: editing ? editing.published === 1 : false,
    order: String(editing?.display_order ?? 0),
  };
}

function fileLabel(file: ExtraFile): string {
  return file.description ? `${file.filename} – ${file.description}` : file.filename;
}

type MediaDialog = 'images' | 'files' | null;

type MediaDialogsProps = Pick<PostFormProps, 'ns' | 'reloadFiles' | 'confirm' | 'onWrite'> & {
  open: MediaDialog;
  onClose: () => void;
  editor: RefObject<MarkdownEditorHandle | null>;
  onBodyChange: (change: (body: string) => string) => void;
};

/** The image manager (inserting into the body) and the files manager the form opens. */
function MediaDialogs({ ns, reloadFiles, confirm, onWrite, open, onClose, editor, onBodyChange }: MediaDialogsProps) {
  return (
    <>
      <PageImageManager
        ns={ns}
        open={open === 'images'}
        onClose={onClose}
        onInsert={(blocks) => {
          onClose();
          // After the dialog has given focus back, so the insertion lands where the cursor was.
          requestAnimationFrame(() => editor.current?.insertBlock(blocks.join('\n\n')));
        }}
        onUrlsReplaced={(pairs) => onBodyChange((text) => pairs.reduce((result, [from, to]) => result.split(from).join(to), text))}
        confirm={confirm}
        onWrite={onWrite}
      />
      <FilesManager ns={ns} open={open === 'files'} onClose={onClose} reload={reloadFiles} confirm={confirm} onWrite={onWrite} />
    </>
  );
}

export function PostForm(props: PostFormProps) {
  const { ns, sections, files, editing, defaultSectionId, onSaved, onNewPost, onClose, onWrite } = props;
  const editor = useRef<MarkdownEditorHandle>(null);
  const [draft, setDraft] = useState(() => draftOf(editing, editing?.section_id ?? defaultSectionId ?? sections[0]?.id ?? ''));
  const [dialog, setDialog] = useState<MediaDialog>(null);
  // Opened by Add Post, Edit or New Post: the form comes into view with the title focused.
  const formRef = useRef<HTMLFormElement>(null);
  const form = useEditorForm(formRef, FIELDS, true);
  const set = (change: Partial<PostDraft>) => setDraft((current) => ({ ...current, ...change }));

  const save = async () => {
    const { sectionId, title, body, fileId, published, order } = draft;
    const input = {
      title,
      body,
      section_id: sectionId === '' ? null : Number(sectionId),
      uploaded_file_id: fileId === '' ? null : Number(fileId),
      published,
      display_order: order,
    };
    const answer = await savePost(ns, editing?.id ?? null, input);
    onWrite();
    await onSaved(answer.post, answer.message);
  };

  const sectionOptions = sections.map((section) => ({ value: section.id, label: sectionOptionLabel(section) }));
  return (
    <EditorForm
      form={form}
      formRef={formRef}
      className="post-form"
      data={{ 'data-post-form': editing ? 'edit' : 'create' }}
      heading={editing ? `Edit post: ${editing.title}` : 'New post'}
      newButton={editing ? { label: 'New Post', onClick: onNewPost } : null}
      submitLabel={editing ? 'Update post' : 'Save post'}
      onClose={onClose}
      onSubmit={save}
      after={
        <MediaDialogs
          {...props}
          open={dialog}
          onClose={() => setDialog(null)}
          editor={editor}
          onBodyChange={(change) => setDraft((current) => ({ ...current, body: change(current.body) }))}
        />
      }
    >
      <SelectField
        label="Section"
        name="section_id"
        value={draft.sectionId}
        onChange={(sectionId) => set({ sectionId })}
        options={sectionOptions}
        emptyOption={sections.length === 0 ? 'No sections yet: add one first' : undefined}
        error={form.errors.section_id}
      />
      <Field label="Title" name="title" value={draft.title} onChange={(title) => set({ title })} error={form.errors.title} autoFocusOnOpen />
      <MarkdownEditor
        ref={editor}
        label="Body"
        name="body"
        value={draft.body}
        onChange={(body) => set({ body })}
        error={form.errors.body}
        onOpenImages={() => setDialog('images')}
      />
      <div className="post-form__row">
        <SelectField
          label="File for download"
          name="uploaded_file_id"
          className="post-form__file"
          value={draft.fileId}
          onChange={(fileId) => set({ fileId })}
          options={files.map((file) => ({ value: file.id, label: fileLabel(file) }))}
          emptyOption="No file"
          error={form.errors.uploaded_file_id}
        />
        <button type="button" className="button button--secondary post-form__files" onClick={() => setDialog('files')} aria-haspopup="dialog">
          Files…
        </button>
      </div>
      <div className="post-form__row">
        <Checkbox label="Published" name="published" checked={draft.published} onChange={(published) => set({ published })} />
        <div className="post-form__order">
          <Field
            label="Display order"
            name="display_order"
            value={draft.order}
            onChange={(order) => set({ order })}
            error={form.errors.order}
            inputMode="numeric"
          />
        </div>
      </div>
    </EditorForm>
  );
}
