// Pieces the content routers (posts, sections, images, home images, extra files) share: field schemas
// with the Laravel-style messages the spec's client shows, and cleanup that waits for the next publish.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { tooLong } from '../../http/fields.ts';

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
