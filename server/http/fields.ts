// Zod fields shared by the accounts forms, with Laravel's messages (the spec's client shows them as sent).
import { z } from 'zod';

export const required = (field: string) => `The ${field} field is required.`;
export const tooLong = (field: string, max: number) => `The ${field} field must not be greater than ${max} characters.`;

/** A trimmed, non-empty string of at most `max` characters. */
export function requiredText(field: string, max: number) {
  return z
    .string({ error: required(field) })
    .trim()
    .min(1, required(field))
    .max(max, tooLong(field, max));
}

/** A trimmed e-mail address of at most 255 characters. */
export const emailField = z
  .string({ error: required('email') })
  .trim()
  .min(1, required('email'))
  .max(255, tooLong('email', 255))
  .pipe(z.email('The email field must be a valid email address.'));
