// The home page's edit form (docs/product/reading.md#home, docs/product/states.md, docs/product/messages.md#validation): title, markdown body with toolbar and live preview,
// order; create mode, or edit mode after Edit with a New Section button back to create mode. Errors for
// title, body and order under the fields, the server's message as a notice.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Field } from '../ui/Field.tsx';
import { Message } from '../ui/Message.tsx';
import { SubmitButton } from '../ui/SubmitButton.tsx';
import type { FieldErrors, FormMessage } from '../ui/form-errors.ts';
import { saveHomeSection, type HomeSection } from '../../lib/api/home.ts';
import { MarkdownEditor } from './MarkdownEditor.tsx';
import { formFailure } from './notices.ts';

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
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [title, setTitle] = useState(editing?.title ?? '');
  const [body, setBody] = useState(editing?.body ?? '');
  const [order, setOrder] = useState(String(editing?.order ?? 0));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const [busy, setBusy] = useState(false);
  // Counts refused submits: after each, once the error state is on the page, focus goes to the first
  // field marked invalid (keyboard and screen-reader users land on the problem).
  const [refusals, setRefusals] = useState(0);

  useEffect(() => {
    if (refusals > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);

  useEffect(() => {
    if (!focusOnMount) return;
    formRef.current?.closest('section')?.scrollIntoView({ block: 'start' });
    formRef.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus({ preventScroll: true });
  }, [focusOnMount]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const answer = await saveHomeSection(editing?.id ?? null, { title, body, order });
      onWrite();
      setErrors({});
      setNotice(null);
      await onSaved(answer.section, answer.message);
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
    <section className="post-form home-form" aria-labelledby={headingId} data-home-form={editing ? 'edit' : 'create'}>
      <div className="post-form__head">
        <h2 className="post-form__title" id={headingId}>
          {editing ? `Edit section: ${editing.title}` : 'New home section'}
        </h2>
        {editing && (
          <button type="button" className="button button--secondary button--small" onClick={onNewSection}>
            New Section
          </button>
        )}
      </div>
      <form ref={formRef} className="form" onSubmit={(event) => void submit(event)} noValidate>
        <Field label="Title" name="title" value={title} onChange={setTitle} error={errors.title} autoFocusOnOpen />
        <MarkdownEditor label="Body" name="body" value={body} onChange={setBody} error={errors.body} rows={8} />
        <div className="post-form__order">
          <Field label="Order" name="order" value={order} onChange={setOrder} error={errors.order} inputMode="numeric" />
        </div>
        <Message message={notice} id={`${id}-notice`} />
        <p className="form__actions">
          <SubmitButton label={editing ? 'Update section' : 'Add section'} busyLabel={busy ? 'Saving…' : undefined} />
        </p>
      </form>
    </section>
  );
}
