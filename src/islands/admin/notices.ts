// What the admin forms show after a call (docs/product/messages.md#validation, docs/product/messages.md#error-catalogue): the first message per field under its field,
// and the server's message as a notice. Failures are always shown in the error style (the original
// product's rule was "error style if field errors exist, otherwise ok style" (docs/product/messages.md#error-catalogue), which read literally would show a refused
// delete in green; successes are the "otherwise").
import { ApiError } from '../../lib/api/client.ts';
import { CONNECTION_ERROR, firstFieldErrors, type FieldErrors, type FormMessage } from '../ui/form-errors.ts';

export const NOT_FOUND_IMAGE = '/not-found.svg';

export function successNotice(answer: { message?: string } | undefined, fallback: string): FormMessage {
  return { text: answer?.message || fallback, tone: 'success' };
}

/** The server's message for a failed call (or a connection message), always in the error style. */
export function failureNotice(error: unknown): FormMessage {
  if (error instanceof ApiError) return { text: error.body.message || `The request failed (status ${error.status}).`, tone: 'error' };
  return { text: CONNECTION_ERROR, tone: 'error' };
}

/** Field errors and the notice for a failed form submit. */
export function formFailure(error: unknown, fields: readonly string[]): { errors: FieldErrors; notice: FormMessage } {
  if (!(error instanceof ApiError)) console.error(error);
  return { errors: firstFieldErrors(error, fields), notice: failureNotice(error) };
}

/** A refused delete's report entries (409), for the list under the message. */
export function reportOf(error: unknown): { id: number; message: string }[] {
  if (!(error instanceof ApiError) || error.status !== 409) return [];
  const report = (error.body as { report?: unknown }).report;
  return Array.isArray(report) ? (report as { id: number; message: string }[]).filter((entry) => typeof entry?.message === 'string') : [];
}

export function isConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409;
}
