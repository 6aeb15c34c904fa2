// The home page's edit form (docs/product/reading.md#home, docs/product/states.md, docs/product/messages.md#validation): title, markdown body with toolbar and live preview,
// order; create mode, or edit mode after Edit with a New Section button back to create mode. Errors for
// title, body and order under the fields, the server's message as a notice (the frame is EditorForm's,
// shared with the post form).
import { useRef, useState } from 'react';
import { Field } from '../ui/Field.tsx';
import { saveHomeSection, type HomeSection } from '../../lib/api/home.ts';
import { EditorForm, useEditorForm } from './EditorForm.tsx';
import { MarkdownEditor } from './MarkdownEditor.tsx';

const FIELDS = ['title', 'body', 'order'] as const;

interface HomeSectionFormProps {
  editing: HomeSection | null;
  /** Focus the title when the form appears (after Edit or New Section, not on page load). */
  focusOnMount: boolean;
  onSaved: (section: HomeSection, message: string) => Promise<void>;
  onNewSection: () => void;
  onWrite: () => void;
}

export function HomeSectionForm({ editing, focusOnMount, onSaved, onNewSection, onWrite }: HomeSectionFormProps) {
  const [title, setTitle] = useState(editing?.title ?? '');
  const [body, setBody] = useState(editing?.body ?? '');
  const [order, setOrder] = useState(String(editing?.order ?? 0));
  const formRef = useRef<HTMLFormElement>(null);
  const form = useEditorForm(formRef, FIELDS, focusOnMount);

  const save = async () => {
    const answer = await saveHomeSection(editing?.id ?? null, { title, body, order });
    onWrite();
    await onSaved(answer.section, answer.message);
  };

  return (
    <EditorForm
      form={form}
      formRef={formRef}
      className="post-form home-form"
      data={{ 'data-home-form': editing ? 'edit' : 'create' }}
      heading={editing ? `Edit section: ${editing.title}` : 'New home section'}
      newButton={editing ? { label: 'New Section', onClick: onNewSection } : null}
      submitLabel={editing ? 'Update section' : 'Add section'}
      onSubmit={save}
    >
      <Field label="Title" name="title" value={title} onChange={setTitle} error={form.errors.title} autoFocusOnOpen />
      <MarkdownEditor label="Body" name="body" value={body} onChange={setBody} error={form.errors.body} rows={8} />
      <div className="post-form__order">
        <Field label="Order" name="order" value={order} onChange={setOrder} error={form.errors.order} inputMode="numeric" />
      </div>
    </EditorForm>
  );
}
