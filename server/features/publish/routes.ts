// Publish status and manual trigger for admins (issue 2, item 6). The admin client reads snake_case.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import type { PublishStatus } from '../../publish/types.ts';

export function presentPublishStatus(status: PublishStatus) {
  return {
    state: status.state,
    pending: status.pending,
    current_build_id: status.currentBuildId,
    last_success: status.lastSuccess && { at: status.lastSuccess.at, duration_ms: status.lastSuccess.durationMs, build_id: status.lastSuccess.buildId },
    last_failure: status.lastFailure && { at: status.lastFailure.at, duration_ms: status.lastFailure.durationMs, log: status.lastFailure.log },
  };
}

export function publishRoutes(ctx: AppContext) {
  const { publisher } = ctx;
  return new Hono<AppEnv>()
    .get('/', requireAdmin, (c) => c.json(presentPublishStatus(publisher.status())))
    .post('/', requireAdmin, (c) => {
      const user = c.get('user');
      publisher.schedule(`requested by admin ${user?.id ?? '?'}`);
      // 202: the build runs in the background; the client polls GET for its outcome.
      return c.json(presentPublishStatus(publisher.status()), 202);
    });
}
