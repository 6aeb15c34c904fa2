// What the admin tools show after a call that is not a form submit (a delete, a reorder, an upload): the
// server's message as a notice, successes in the success style and failures always in the error style,
// even a refusal without field errors (docs/decisions/0015-content-admin-overlay.md, 'Refusals are
// errors'). Form submits go through ui/use-form-submit.ts.
import { ApiError } from '../../lib/api/request.ts';
import { serverMessage, type FormMessage } from '../ui/form-errors.ts';

export const NOT_FOUND_IMAGE = '/not-found.svg';

export function successNotice(answer: { message?: string } | undefined, fallback: string): FormMessage {
  return { text: answer?.message || fallback, tone: 'success' };
}

/** The server's message for a failed call (or a connection message), always in the error style. */
export function failureNotice(error: unknown): FormMessage {
  if (!(error instanceof ApiError)) console.error(error);
  return { text: serverMessage(error), tone: 'error' };
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
