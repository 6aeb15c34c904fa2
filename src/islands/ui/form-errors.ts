// Turning an API failure into what a form shows (docs/product/messages.md#validation, docs/product/messages.md#error-catalogue): the first message per field, and the
// general message unless it only repeats one of those (the server's 422 message is the first field
// error, so showing both would say the same thing twice, and a screen reader would read it twice).
import { ApiError } from '../../lib/api/client.ts';

export type FieldErrors = Partial<Record<string, string>>;

export type Tone = 'success' | 'error' | 'info';

export interface FormMessage {
  text: string;
  tone: Tone;
}

export const SERVER_ERROR = 'Server error, please try again later!';
export const CONNECTION_ERROR = 'The server could not be reached. Please check your connection and try again.';

export function firstFieldErrors(error: unknown, fields: readonly string[]): FieldErrors {
  const errors: FieldErrors = {};
  if (!(error instanceof ApiError)) return errors;
  for (const field of fields) {
    const message = error.field(field);
    if (message) errors[field] = message;
  }
  return errors;
}

/** The general message, or undefined when the field errors already say it. */
export function generalMessage(error: unknown, shown: FieldErrors): string | undefined {
  if (!(error instanceof ApiError)) return CONNECTION_ERROR;
  const text = error.body.message ?? error.message;
  return Object.values(shown).includes(text) ? undefined : text;
}

/** Moves focus to the first field marked invalid, so keyboard and screen-reader users land on the problem. */
export function focusFirstInvalid(form: HTMLFormElement | null): void {
  // After React has rendered the error state.
  requestAnimationFrame(() => form?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
