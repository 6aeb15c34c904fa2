// GET /api/botcheck/challenge: a fresh signed ALTCHA challenge for the invisible bot check (issue 3, item 1).
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { createBotChallenge } from '../../auth/botcheck.ts';

export function botcheckRoutes(ctx: AppContext) {
  return new Hono<AppEnv>().get('/challenge', async (c) => {
    const challenge = await createBotChallenge(ctx);
    // Every challenge works once: a cached one would be refused as already used.
    c.header('Cache-Control', 'no-store');
    return c.json(challenge);
  });
}

/** The botcheck feature as server/app.ts mounts it: the bot check's challenges, at full paths. */
export function botcheckFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/botcheck', botcheckRoutes(ctx));
}
