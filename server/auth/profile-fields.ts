// The profile fields a user edits on their own card (docs/product/data-model.md#user), the one schema of the
// own-profile edit and of the admin's edit of any user, so both store the same shapes.
import { z } from 'zod';
import { oneLine, required, tooLong } from '../http/fields.ts';

/**
 * Optional text: trimmed, and empty (or null) stored as null, which the user card shows as blank. Names are
 * one line (server/http/fields.ts, issue 29 item 5): they go into mails and the license files.
 */
function nullableText(field: string, max: number, line: 'name' | 'text' = 'text') {
  const text = z
    .string({ error: `The ${field} field must be a string.` })
    .trim()
    .max(max, tooLong(field, max));
  return (line === 'name' ? text.refine(...oneLine(field)) : text).nullish().transform((value) => (value === '' ? null : value));
}

// Only these keys can reach the update; unknown keys (id, timestamps, licenses…) are dropped here, and
// the protected ones are refused before this runs.
export const profileSchema = z.object({
  name: z
    .string({ error: required('name') })
    .trim()
    .min(1, required('name'))
    .max(255, tooLong('name', 255))
    .refine(...oneLine('name'))
    .optional(),
  surname: nullableText('surname', 255, 'name'),
  companyName: nullableText('company name', 255, 'name'),
  address: nullableText('address', 500),
  postcode: nullableText('postcode', 32),
  county: nullableText('county', 255),
  country: nullableText('country', 255),
  phone: nullableText('phone', 64),
  vat: nullableText('vat', 64),
});
