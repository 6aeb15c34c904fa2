// The updates feature (issue 25; docs/updates.md) at its full paths: the update API the software polls
// (api-routes.ts), the customer's "My software" and the admins' download numbers.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin, requireUser } from '../../auth/guards.ts';
import { validate } from '../../http/validate.ts';
import { wholeNumberField } from '../../http/fields.ts';
import { UPDATES_PREFIX, updatesApiRoutes } from './api-routes.ts';
import { softwareOfUser } from './software.ts';
import { downloadStats } from './stats.ts';
import { loadMarkdown } from '../../lazy-libraries.ts';

const statsQuerySchema = z.object({ days: wholeNumberField('days', 1, 365).default(30) });

export function updatesFeature(ctx: AppContext) {
  return (
    new Hono<AppEnv>()
      .route(UPDATES_PREFIX, updatesApiRoutes(ctx))
      // requireUser answers 401 without a session.
      .get('/api/user/software', requireUser, async (c) => c.json(softwareOfUser(ctx, c.get('user')!, (await loadMarkdown()).renderMarkdown)))
      .get('/api/admin/downloads/stats', requireAdmin, validate('query', statsQuerySchema), (c) =>
        c.json(downloadStats(ctx.db, { days: c.req.valid('query').days, now: ctx.now() })),
      )
  );
}
