// Zod fields shared by every router and form: texts with Laravel's messages (the spec's client shows them as
// sent), and the one way flags and ids are read.
import { z } from 'zod';
import { CONTROL_OR_BIDI } from '../ops/terminal-text.ts';

export const required = (field: string) => `The ${field} field is required.`;
export const tooLong = (field: string, max: number) => `The ${field} field must not be greater than ${max} characters.`;

// What a one-line text (a name, a machine's name, platform or fingerprint) may not hold (issue 29, items 2
// and 5): C0 and C1 controls (CR, LF, tab, NUL, BEL, ESC, NEL, …), the Unicode line and paragraph separators,
// and the bidi overrides, isolates and marks, defined once in server/ops/terminal-text.ts. A line break in a
// name forged lines in the admins' mail ("Name: Eve" then "Bcc: …"); an escape or a bidi override in a machine
// name rewrote what a terminal showed support.
export const notOneLine = (field: string) => `The ${field} field must be one line, without line breaks or control characters.`;

/**
 * The one rule for one-line texts, added to a string field after its trim (surrounding space and line ends
 * are trimmed first, so only what is left inside is refused): `.refine(...oneLine('name'))`.
 */
export function oneLine(field: string) {
  return [(value: string) => !CONTROL_OR_BIDI.test(value), { error: notOneLine(field) }] as const;
}

/** A trimmed, non-empty, one-line string of at most `max` characters: a name. */
export function requiredLine(field: string, max: number) {
  return requiredText(field, max).refine(...oneLine(field));
}

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

// Flags and ids, parsed the same way by every router and form, JSON or form data alike. An empty value
// ('' or null) counts as not sent: a form sends an empty input that way, and the spec's client sends null.
const isBlank = (value: unknown) => value === '' || value === null;
const blankToUndefined = (value: unknown) => (isBlank(value) ? undefined : value);

const TRUE_WORDS = new Set(['1', 'true', 'on', 'yes']);
const FALSE_WORDS = new Set(['0', 'false', 'off', 'no']);

/** true/false, 1/0 and their string forms, plus a checkbox's on/off and yes/no (any case), as 0 or 1. */
function flagValue(label: string) {
  return z.unknown().transform((value, ctx): 0 | 1 => {
    const flag = flagOf(value);
    if (flag !== undefined) return flag;
    ctx.issues.push({ code: 'custom', message: value === undefined ? required(label) : `The ${label} field must be true or false.`, input: value });
    return z.NEVER;
  });
}

function flagOf(value: unknown): 0 | 1 | undefined {
  if (value === true || value === 1) return 1;
  if (value === false || value === 0) return 0;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  return TRUE_WORDS.has(word) ? 1 : FALSE_WORDS.has(word) ? 0 : undefined;
}

/** A flag that must be sent: 0 or 1 (the database's form). */
export function flagField(label: string) {
  return z.preprocess(blankToUndefined, flagValue(label));
}

/** A flag that may be left out (undefined then, so an update keeps the stored value). */
export function optionalFlagField(label: string) {
  return z.preprocess(blankToUndefined, flagValue(label).optional());
}

/** A flag that may be left out, taking `fallback` then. */
export function flagFieldOr(label: string, fallback: 0 | 1) {
  return z.preprocess(blankToUndefined, flagValue(label).default(fallback));
}

const ID_TEXT = /^\d{1,16}$/;

/** A positive safe integer from a number or a string of digits; null for anything else. */
function idOf(value: unknown): number | null {
  const id = typeof value === 'number' ? value : typeof value === 'string' && ID_TEXT.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** A path or query id (`/users/:id`): digits only, no sign or spaces; null (the routes answer 404) for anything else. */
export function parseId(text: string | undefined): number | null {
  return text !== undefined && ID_TEXT.test(text) ? idOf(text) : null;
}

/** A path id for a lookup: 0, which no row has, for anything malformed, so the lookup misses and answers 404. */
export function pathId(text: string | undefined): number {
  return parseId(text) ?? 0;
}

function idValue(label: string) {
  return z.unknown().transform((value, ctx): number => {
    const id = idOf(value);
    if (id !== null) return id;
    ctx.issues.push({ code: 'custom', message: value === undefined ? required(label) : `The selected ${label} is invalid.`, input: value });
    return z.NEVER;
  });
}

/** A row id that must be sent: a positive integer, as a number or a string of digits. */
export function idField(label: string) {
  return z.preprocess(blankToUndefined, idValue(label));
}

/** A row id that may be left out (undefined then). */
export function optionalIdField(label: string) {
  return z.preprocess(blankToUndefined, idValue(label).optional());
}

/**
 * A row id or null for "none" (a select's "No file" option): null, '', 0 and 'null' all say none, and so
 * does leaving the field out.
 */
export function nullableIdField(label: string) {
  return z.preprocess(
    (value) => (value === undefined || isBlank(value) || value === 0 || value === '0' || value === 'null' ? null : value),
    idValue(label).nullable(),
  );
}

/** A non-empty list of ids: `[1, 2]`, `["1", "2"]` or `[{ id: 1 }, …]` (the image manager's selected items), without repeats. */
export function idListField(label: string, emptyMessage: string, max = 500) {
  return z.preprocess(
    (value) => {
      const list = Array.isArray(value) ? value : value === undefined || isBlank(value) ? [] : [value];
      return list.map((item: unknown) => (item !== null && typeof item === 'object' && 'id' in item ? (item as { id: unknown }).id : item));
    },
    z
      .array(
        z.unknown().transform((item, ctx): number => {
          const id = idOf(item);
          if (id !== null) return id;
          ctx.issues.push({ code: 'custom', message: `The ${label} must be ids.`, input: item });
          return z.NEVER;
        }),
      )
      .min(1, emptyMessage)
      .max(max, `At most ${max} ${label} at once.`)
      .transform((ids) => [...new Set(ids)]),
  );
}

/** An optional integer that defaults to 0 (docs/product/constants.md: order and display order default to 0). */
export function orderField(label: string) {
  return z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    z.coerce
      .number({ error: `The ${label} must be a number.` })
      .int(`The ${label} must be a whole number.`)
      .min(-1_000_000, `The ${label} is out of range.`)
      .max(1_000_000, `The ${label} is out of range.`)
      .default(0),
  );
}

/** An optional single-line text (image title, alt) of at most `max` characters. */
export function optionalText(label: string, max: number) {
  return z
    .preprocess((value) => (value === null ? '' : value), z.string({ error: `The ${label} must be text.` }))
    .transform((value) => value.trim())
    .pipe(z.string().max(max, tooLong(label, max)));
}

const wholeNumber = (label: string) => `The ${label} field must be a whole number.`;

/**
 * A whole number in [min, max], as a number or a string of digits (a form's input); '' or null mean not
 * sent (undefined). The one reader of counts and days in forms (machine limits, a license type's days).
 */
export function wholeNumberField(label: string, min: number, max: number) {
  return z.preprocess(
    blankToUndefined,
    z
      .union([z.number(), z.string().trim().regex(/^\d+$/, wholeNumber(label))], { error: wholeNumber(label) })
      .transform(Number)
      .pipe(
        z
          .number()
          .int(wholeNumber(label))
          .min(min, `The ${label} field must be at least ${min}.`)
          .max(max, `The ${label} field must not be greater than ${max}.`),
      )
      .optional(),
  );
}
