// Work that must wait for the publish a change scheduled (removing files the live pages still show).
import type { AppContext } from '../context.ts';

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
