// The one error shape every API answer uses (docs/product/messages.md#validation, docs/engineering.md#habits, habit 2):
// { message, errors?: { field: [first message, …] } }.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ZodError } from 'zod';

export type FieldErrors = Record<string, string[]>;

export function errorResponse(c: Context, status: ContentfulStatusCode, message: string, errors?: FieldErrors) {
  return c.json(errors ? { message, errors } : { message }, status);
}

export function validationFailed(c: Context, errors: FieldErrors, message = firstMessage(errors) ?? 'The given data was invalid.') {
  return errorResponse(c, 422, message, errors);
}

export function fieldErrorsFromZod(error: ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : 'general';
    (errors[field] ??= []).push(issue.message);
  }
  return errors;
}

function firstMessage(errors: FieldErrors): string | undefined {
  for (const messages of Object.values(errors)) if (messages[0]) return messages[0];
  return undefined;
}

/** Thrown from deep inside a handler to answer with a clean status and message; caught by the app's onError. */
export class HttpError extends Error {
  readonly status: ContentfulStatusCode;
  readonly errors: FieldErrors | undefined;
  readonly headers: Record<string, string> | undefined;
  constructor(status: ContentfulStatusCode, message: string, errors?: FieldErrors, headers?: Record<string, string>) {
    super(message);
    this.status = status;
    this.errors = errors;
    this.headers = headers;
  }
}
