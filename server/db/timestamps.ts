// Timestamps as the tables store them (ISO text, from the context's clock so tests can move time).
import type { AppContext } from '../context.ts';

/** The current time as the ISO text the timestamp columns hold. */
export function nowIso(ctx: Pick<AppContext, 'now'>): string {
  return new Date(ctx.now()).toISOString();
}
