// The one error policy of the islands' forms: what a form shows after a failed call (docs/admin-api.md
// and docs/content-api.md on the `{ message, errors }` answer). In order:
// 1. a refused bot check says so;
// 2. no answer at all (a network failure) says the server could not be reached;
// 3. a status the form words itself (e.g. a friendly text for 5xx) shows that text alone;
// 4. otherwise the first message per field under its field, and the server's message, unless it only
//    repeats one of those (the server's 422 message is the first field error, so showing both would say
//    the same thing twice, and a screen reader would read it twice). Forms whose notice sits apart from
//    the fields (the admin screens) show it always: it is what the admin reads first.
// Focus then goes to the first field marked invalid (use-focus-invalid.ts).
import { ApiError } from '../../lib/api/request.ts';
import { BotCheckError, BOTCHECK_UNAVAILABLE_MESSAGE } from '../../lib/botcheck.ts';

export type FieldErrors = Partial<Record<string, string>>;

export type Tone = 'success' | 'error' | 'info';

export interface FormMessage {
  text: string;
  tone: Tone;
}

export const SERVER_ERROR = 'Server error, please try again later!';
export const CONNECTION_ERROR = 'The server could not be reached. Please check your connection and try again.';

export interface FailureWording {
  /** A fixed text for an answer status this form words itself; undefined keeps the server's words. */
  statusMessage?: (status: number) => string | undefined;
  /** Show the server's message even when a field error already says it. */
  messageAlways?: boolean;
  /** The field a status is the fault of (413: the file is too big), whose error then says the message. */
  statusField?: (status: number) => string | undefined;
}

export interface FormFailure {
  errors: FieldErrors;
  message: FormMessage | null;
}

/** The friendly text for any server failure (5xx), used by the public and account forms. */
export function serverErrorFor5xx(status: number): string | undefined {
  return status >= 500 ? SERVER_ERROR : undefined;
}

export function firstFieldErrors(error: unknown, fields: readonly string[]): FieldErrors {
  const errors: FieldErrors = {};
  if (!(error instanceof ApiError)) return errors;
  for (const field of fields) {
    const message = error.field(field);
    if (message) errors[field] = message;
  }
  return errors;
}

/** The server's own words for a failed call, or a connection message when there was no answer. */
export function serverMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return CONNECTION_ERROR;
  return error.body.message || `The request failed (status ${error.status}).`;
}

/** The general message, or undefined when the field errors already say it. */
export function generalMessage(error: unknown, shown: FieldErrors): string | undefined {
  const text = serverMessage(error);
  return Object.values(shown).includes(text) ? undefined : text;
}

function errorMessage(text: string | undefined): FormMessage | null {
  return text ? { text, tone: 'error' } : null;
}

/** What a form shows for a failed submit: field errors and the message, by the policy above. */
export function describeFailure(error: unknown, fields: readonly string[], wording: FailureWording = {}): FormFailure {
  if (error instanceof BotCheckError) return { errors: {}, message: errorMessage(error.message || BOTCHECK_UNAVAILABLE_MESSAGE) };
  // Not an answer of the server: a lost connection, or a bug worth seeing in the console.
  if (!(error instanceof ApiError)) console.error(error);
  const fixed = error instanceof ApiError ? wording.statusMessage?.(error.status) : undefined;
  if (fixed) return { errors: {}, message: errorMessage(fixed) };
  const errors = firstFieldErrors(error, fields);
  const blamed = error instanceof ApiError ? wording.statusField?.(error.status) : undefined;
  if (blamed && !errors[blamed]) errors[blamed] = serverMessage(error);
  return { errors, message: errorMessage(wording.messageAlways ? serverMessage(error) : generalMessage(error, errors)) };
}
