// Publish status and manual trigger for admins (issue 2, item 6). The admin client reads snake_case.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { presentPublishStatus } from './present.ts';

export function publishRoutes(ctx: AppContext) {
  const { publisher } = ctx;
  return new Hono<AppEnv>()
    .get('/', requireAdmin, (c) => c.json(presentPublishStatus(publisher.status())))
    .post('/', requireAdmin, (c) => {
      const user = c.get('user');
      // The admin's "publish now" is the way out of anything an incremental publish could miss: it always
      // builds every page (docs/decisions/0044-incremental-publish.md).
      publisher.schedule(`full build requested by admin ${user?.id ?? '?'}`, { full: true });
      // 202: the build runs in the background; the client polls GET for its outcome.
      return c.json(presentPublishStatus(publisher.status()), 202);
    });
}

/** The publish feature as server/app.ts mounts it: the publish status and a publish on demand, at full paths. */
export function publishFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/admin/publish', publishRoutes(ctx));
}
