// The one form-submit hook of the islands. A form gives its fields and wording once and gets the
// skeleton of form-submitter.ts with its state, plus focus on the first invalid field after a failure:
//   const formRef = useRef<HTMLFormElement>(null);
//   const form = useFormSubmit(formRef, { fields: ['email'], statusMessage: serverErrorFor5xx });
//   <form ref={formRef} onSubmit={form.onSubmit(async () => { … return { text, tone: 'success' }; })}>
//   <Field error={form.errors.email} … /> <Message message={form.message} /> <SubmitButton busyLabel={form.busyLabel} … />
import { useState, type RefObject } from 'react';
import type { FieldErrors, FormFailure, FormMessage } from './form-errors.ts';
import { createFormSubmitter, INITIAL_FORM_STATE, type FormState, type FormSubmitOptions, type SubmitAction } from './form-submitter.ts';
import { useFocusFirstInvalid } from './use-focus-invalid.ts';

export { STAY_BUSY } from './form-submitter.ts';

interface UseFormSubmitOptions extends FormSubmitOptions {
  /** Where focus goes after a failure when no field is marked invalid. */
  focusFallback?: () => HTMLElement | null | undefined;
}

export interface FormSubmit {
  busy: boolean;
  busyLabel: string | undefined;
  errors: FieldErrors;
  message: FormMessage | null;
  setMessage: (message: FormMessage | null) => void;
  /** Takes the errors and the message away (e.g. a while after they were shown). */
  clear: () => void;
  /** Runs an action the form's buttons start (no submit event); resolves with the failure shown, or null. */
  run: (action: SubmitAction) => Promise<FormFailure | null>;
  /** The form's onSubmit handler for an action. */
  onSubmit: (action: SubmitAction) => (event: { preventDefault: () => void }) => void;
}

/** `formRef` goes on the <form>: focus moves inside it after a failure. */
export function useFormSubmit(formRef: RefObject<HTMLFormElement | null>, options: UseFormSubmitOptions): FormSubmit {
  const [state, setState] = useState<FormState>(INITIAL_FORM_STATE);
  // One submitter per form: its running flag outlives re-renders.
  const [submitter] = useState(() => createFormSubmitter(setState));
  useFocusFirstInvalid(formRef, state.failures, options.focusFallback);
  const run = (action: SubmitAction) => submitter.run(action, options);
  return {
    busy: state.busyLabel !== undefined,
    busyLabel: state.busyLabel,
    errors: state.errors,
    message: state.message,
    setMessage: (message) => setState((current) => ({ ...current, message })),
    clear: () => setState((current) => ({ ...current, errors: {}, message: null })),
    run,
    onSubmit: (action) => (event) => {
      event.preventDefault();
      void run(action);
    },
  };
}
