// Pieces the content routers (posts, sections, images, home images, extra files) share: field schemas
// with the Laravel-style messages the spec's client shows, and cleanup that waits for the next publish.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { required, tooLong } from '../../http/fields.ts';

/** 1/0, true/false and the form spellings of a checkbox, as 0 or 1. */
export function flagField(label: string) {
  const message = `The ${label} field must be true or false.`;
  return z.preprocess(
    (value) => {
      if (value === true || value === 1) return 1;
      if (value === false || value === 0) return 0;
      if (typeof value === 'string') {
        const text = value.trim().toLowerCase();
        if (['1', 'true', 'on', 'yes'].includes(text)) return 1;
        if (['0', 'false', 'off', 'no', ''].includes(text)) return 0;
      }
      return value;
    },
    z.union([z.literal(0), z.literal(1)], { error: message }),
  );
}

/** A required positive id (number or numeric string). */
export function idField(label: string) {
  return z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    z.coerce.number({ error: required(label) }).int(`The ${label} must be a whole number.`).positive(required(label)),
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

/** A non-empty list of ids: `[1, 2]`, `["1", "2"]` or `[{ id: 1 }, …]` (the image manager's selected items). */
export function idListField(label: string, emptyMessage: string) {
  return z.preprocess(
    (value) => {
      const list = Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : [value];
      return list.map((item) => (item !== null && typeof item === 'object' && 'id' in item ? (item as { id: unknown }).id : item));
    },
    z
      .array(z.coerce.number({ error: `The ${label} must be ids.` }).int(`The ${label} must be ids.`).positive(`The ${label} must be ids.`))
      .min(1, emptyMessage)
      .max(500, `At most 500 ${label} at once.`)
      .transform((ids) => [...new Set(ids)]),
  );
}

/** The current time as the ISO text the timestamp columns hold. */
export function nowIso(ctx: Pick<AppContext, 'now'>): string {
  return new Date(ctx.now()).toISOString();
}

/**
 * Runs `work` (removing files) once the publish scheduled for this change has finished, so the live
 * pages, which still show the old image until the new build switches in, never point at a removed
 * file. With nothing building it runs on the next turn. Failures are logged: a leftover file is
 * harmless, a failed request after a committed delete would not be.
 */
export function afterPublish(ctx: Pick<AppContext, 'publisher' | 'log'>, what: string, work: () => void | Promise<void>): void {
  void ctx.publisher
    .whenIdle()
    .then(work)
    .catch((error: unknown) => ctx.log.error(`cleanup after publish failed: ${what}`, error));
}
