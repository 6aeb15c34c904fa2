// The account dialogs' form parts without React (docs/decisions/0055-account-dialogs-without-react.md): the
// same markup, classes and ARIA as the islands' Field, Checkbox, Message and SubmitButton (src/islands/ui/),
// and the islands' one submit skeleton (form-submitter.ts, with form-errors.ts's error policy) drawn onto
// them. What a form shows after a failure, which call may run and when focus moves are decided there, not
// here: this file only puts the state on the page.
import { describedByOf } from '../../islands/ui/described-by.ts';
import type { FormFailure, FormMessage } from '../../islands/ui/form-errors.ts';
import { createFormSubmitter, INITIAL_FORM_STATE, type FormState, type FormSubmitOptions, type SubmitAction } from '../../islands/ui/form-submitter.ts';

let controls = 0;

/** A page-unique id for a control and its notes (React's useId in the islands). */
function nextControlId(): string {
  controls += 1;
  return `account-control-${controls}`;
}

/** An element with a class and, optionally, its text. */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A button that is not a submit button, with the site's button classes. */
export function actionButton(label: string, className: string, onClick: () => void): HTMLButtonElement {
  const button = element('button', className, label);
  button.type = 'button';
  button.addEventListener('click', onClick);
  return button;
}

export interface FieldView {
  element: HTMLDivElement;
  input: HTMLInputElement;
  showError: (error: string | undefined) => void;
}

export interface FieldOptions {
  label: string;
  name: string;
  type?: 'text' | 'email' | 'password';
  autoComplete: string;
  /** Focused when the dialog opens. */
  autofocus?: boolean;
  inputMode?: 'numeric';
  value?: string;
}

/** A labelled input with its first server error underneath, tied to it by aria-invalid and aria-describedby. */
export function createField(options: FieldOptions): FieldView {
  const id = nextControlId();
  const wrapper = element('div', 'field');
  const label = element('label', 'field__label', options.label);
  label.htmlFor = id;
  const input = element('input', 'field__control');
  input.id = id;
  input.name = options.name;
  input.type = options.type ?? 'text';
  input.autocomplete = options.autoComplete as AutoFill;
  input.value = options.value ?? '';
  if (options.inputMode) input.inputMode = options.inputMode;
  if (options.autofocus) input.dataset.autofocus = '';
  wrapper.append(label, input);
  let errorNote: HTMLParagraphElement | undefined;
  const showError = (error: string | undefined) => {
    wrapper.className = error ? 'field field--invalid' : 'field';
    errorNote?.remove();
    errorNote = undefined;
    const describedBy = describedByOf(id, undefined, error);
    if (describedBy) input.setAttribute('aria-describedby', describedBy);
    else input.removeAttribute('aria-describedby');
    if (!error) {
      input.removeAttribute('aria-invalid');
      return;
    }
    input.setAttribute('aria-invalid', 'true');
    errorNote = element('p', 'field__error', error);
    errorNote.id = `${id}-error`;
    wrapper.append(errorNote);
  };
  return { element: wrapper, input, showError };
}

export function createCheckbox(label: string, name: string): { element: HTMLDivElement; input: HTMLInputElement } {
  const id = nextControlId();
  const wrapper = element('div', 'field field--checkbox');
  const input = element('input');
  input.id = id;
  input.name = name;
  input.type = 'checkbox';
  const text = element('label', undefined, label);
  text.htmlFor = id;
  wrapper.append(input, text);
  return { element: wrapper, input };
}

/** The form's live region: it exists before any text arrives, so screen readers announce a message when it appears. */
export function createMessageRegion(): { element: HTMLDivElement; show: (message: FormMessage | null) => void } {
  const region = element('div', 'form-message');
  region.setAttribute('role', 'status');
  region.setAttribute('aria-live', 'polite');
  region.setAttribute('aria-atomic', 'true');
  const show = (message: FormMessage | null) =>
    region.replaceChildren(...(message ? [element('p', `form-message__text form-message__text--${message.tone}`, message.text)] : []));
  return { element: region, show };
}

/** A submit button that says what is happening; it stays focusable while busy (aria-disabled), as SubmitButton does. */
export function createSubmitButton(label: string): { element: HTMLButtonElement; showBusy: (busyLabel: string | undefined) => void } {
  const button = element('button', 'button', label);
  button.type = 'submit';
  const showBusy = (busyLabel: string | undefined) => {
    const busy = busyLabel !== undefined;
    button.className = busy ? 'button is-busy' : 'button';
    if (busy) button.setAttribute('aria-disabled', 'true');
    else button.removeAttribute('aria-disabled');
    button.replaceChildren(...(busy ? [spinner(), busyLabel] : [label]));
  };
  return { element: button, showBusy };
}

function spinner(): HTMLSpanElement {
  const node = element('span', 'spinner spinner--small');
  node.setAttribute('aria-hidden', 'true');
  return node;
}

export interface FormParts {
  fields: Partial<Record<string, FieldView>>;
  submit: { showBusy: (busyLabel: string | undefined) => void };
  message: { show: (message: FormMessage | null) => void };
  /** Buttons that start their own action (a passkey): disabled while a call runs. */
  disabledWhileBusy?: () => readonly HTMLButtonElement[];
}

export interface FormController {
  /** Runs an action unless one runs; resolves with the failure shown, or null. */
  run: (action: SubmitAction) => Promise<FormFailure | null>;
  setMessage: (message: FormMessage | null) => void;
  /** Takes the errors and the message away. */
  clear: () => void;
  busy: () => boolean;
}

/**
 * Puts the submit skeleton's state on a form: errors under their fields, the message in the live region,
 * the busy label on the submit button, and after each failure focus on the first field marked invalid.
 */
export function createFormController(form: HTMLFormElement, parts: FormParts, options: FormSubmitOptions): FormController {
  let state: FormState = INITIAL_FORM_STATE;
  const render = (previous: FormState) => {
    for (const [name, field] of Object.entries(parts.fields)) field?.showError(state.errors[name]);
    parts.message.show(state.message);
    parts.submit.showBusy(state.busyLabel);
    const busy = state.busyLabel !== undefined;
    form.setAttribute('aria-busy', String(busy));
    for (const button of parts.disabledWhileBusy?.() ?? []) button.disabled = busy;
    if (state.failures > previous.failures) form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  };
  const update = (change: (current: FormState) => FormState) => {
    const previous = state;
    state = change(state);
    render(previous);
  };
  const submitter = createFormSubmitter(update);
  form.noValidate = true;
  form.setAttribute('aria-busy', 'false');
  return {
    run: (action) => submitter.run(action, options),
    setMessage: (message) => update((current) => ({ ...current, message })),
    clear: () => update((current) => ({ ...current, errors: {}, message: null })),
    busy: () => state.busyLabel !== undefined,
  };
}
