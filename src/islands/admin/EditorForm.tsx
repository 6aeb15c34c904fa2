// The frame both content editors share, the post form and the home-section form (docs/content-api.md):
// a heading that says what is edited, a 'New …' button back to create mode while editing, the form with
// the server's message as a notice and the submit button, and on appearing the form scrolled into view
// with its first field focused. Errors come back per field; the notice always shows the server's message
// in the admin style (ui/form-errors.ts).
import { useEffect, useId, type ReactNode, type RefObject } from 'react';
import { Message } from '../ui/Message.tsx';
import { SubmitButton } from '../ui/SubmitButton.tsx';
import { useFormSubmit, type FormSubmit } from '../ui/use-form-submit.ts';

/** The editor's submit state; with `focusOnMount` the form comes into view with its first field focused. */
export function useEditorForm(formRef: RefObject<HTMLFormElement | null>, fields: readonly string[], focusOnMount: boolean): FormSubmit {
  const form = useFormSubmit(formRef, { fields, messageAlways: true });
  useEffect(() => {
    if (!focusOnMount) return;
    formRef.current?.closest('section')?.scrollIntoView({ block: 'start' });
    formRef.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus({ preventScroll: true });
  }, [focusOnMount, formRef]);
  return form;
}

interface EditorFormProps {
  form: FormSubmit;
  formRef: RefObject<HTMLFormElement | null>;
  className: string;
  /** Marks the section for the page's scripts and tests, e.g. { 'data-post-form': 'edit' }. */
  data: Record<`data-${string}`, string>;
  heading: string;
  /** The button back to create mode, shown while editing. */
  newButton: { label: string; onClick: () => void } | null;
  submitLabel: string;
  /** Closes the editor (a button beside submit), where the editor can be closed. */
  onClose?: () => void;
  onSubmit: () => Promise<void>;
  children: ReactNode;
  /** Rendered after the form, inside the section (the editor's dialogs). */
  after?: ReactNode;
}

export function EditorForm({ form, formRef, className, data, heading, newButton, submitLabel, onClose, onSubmit, children, after }: EditorFormProps) {
  const id = useId();
  const headingId = `${id}-heading`;
  return (
    <section className={className} aria-labelledby={headingId} {...data}>
      <div className="post-form__head">
        <h2 className="post-form__title" id={headingId}>
          {heading}
        </h2>
        {newButton && (
          <button type="button" className="button button--secondary button--small" onClick={newButton.onClick}>
            {newButton.label}
          </button>
        )}
      </div>
      <form ref={formRef} className="form" onSubmit={form.onSubmit(onSubmit)} noValidate>
        {children}
        <Message message={form.message} id={`${id}-notice`} />
        <p className="form__actions">
          <SubmitButton label={submitLabel} busyLabel={form.busyLabel} />
          {onClose && (
            <button type="button" className="button button--secondary" onClick={onClose}>
              Close
            </button>
          )}
        </p>
      </form>
      {after}
    </section>
  );
}
