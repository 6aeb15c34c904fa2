// Content forms arrive as JSON from our own client, but docs/product/api.md also names multipart bodies (the
// section store) and older clients post forms: read any of the three into one plain object and
// validate it with zod, answering 422 { message, errors } like validate() does for JSON bodies.
import type { Context } from 'hono';
import type { ZodType, z } from 'zod';
import { fieldErrorsFromZod, HttpError, type FieldErrors } from './errors.ts';

/** The request's fields: a JSON object, or the text fields of a form (files are left out). */
export async function readFields(c: Context): Promise<Record<string, unknown>> {
  const type = (c.req.header('Content-Type') ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')) {
    let form: Record<string, string | File | (string | File)[]>;
    try {
      form = await c.req.parseBody({ all: true });
    } catch {
      throw new HttpError(400, 'The form data could not be read.');
    }
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(form)) {
      const name = key.endsWith('[]') ? key.slice(0, -2) : key;
      if (Array.isArray(value)) fields[name] = value.filter((item) => typeof item === 'string');
      else if (typeof value === 'string') fields[name] = key.endsWith('[]') ? [value] : value;
    }
    return fields;
  }
  const text = await c.req.text();
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new HttpError(422, 'The request body must be a JSON object.');
  return value as Record<string, unknown>;
}

/** Validates `fields` with `schema`; throws a 422 HttpError with per-field messages when it fails. */
export function parseFields<Schema extends ZodType>(schema: Schema, fields: unknown): z.output<Schema> {
  const result = schema.safeParse(fields);
  if (!result.success) throw unprocessable(fieldErrorsFromZod(result.error));
  return result.data;
}

/** Reads and validates the body in one step. */
export async function readValidFields<Schema extends ZodType>(c: Context, schema: Schema): Promise<z.output<Schema>> {
  return parseFields(schema, await readFields(c));
}

/** A 422 whose message is the first field message, the shape docs/product/messages.md#validation reads. */
export function unprocessable(errors: FieldErrors, message?: string): HttpError {
  const first = Object.values(errors).find((messages) => messages.length > 0)?.[0];
  return new HttpError(422, message ?? first ?? 'The given data was invalid.', errors);
}
