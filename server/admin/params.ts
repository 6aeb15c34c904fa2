// Small parsers shared by the admin routers.
import { z } from 'zod';

/** A path id: a positive safe integer, or null (the routes then answer 404, as for an unknown id). */
export function parseId(text: string | undefined): number | null {
  if (text === undefined || !/^[1-9]\d{0,15}$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : null;
}

/**
 * A 0/1 flag as clients send it: true/false, 0/1 or their string forms (form data, the spec's client).
 * The database keeps 0/1.
 */
export function flagField(label: string) {
  return z
    .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])], { error: `The ${label} field must be true or false.` })
    .transform((value): 0 | 1 => (value === true || value === 1 || value === '1' || value === 'true' ? 1 : 0));
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
