// The admin's view of a user's sessions (docs/admin-api.md#sessions-of-a-user; issue 13, item 2), mounted at
// /api/admin/users beside the users listing: list them, end one, end all. Shown in the user's Details area
// of the admin console. The list is the one the user sees (server/features/accounts/session-list.ts).
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { invalidateUserSessions } from '../../auth/sessions.ts';
import { deleteSessionOfUserByPublicId, listLiveSessionsOfUser } from '../../db/queries/sessions.ts';
import { getUserById } from '../../db/queries/users.ts';
import { errorResponse } from '../../http/errors.ts';
import { parseId } from '../../http/fields.ts';
import { PUBLIC_SESSION_ID, SESSION_MESSAGES } from '../accounts/sessions.ts';
import { presentSessions } from '../accounts/session-list.ts';
import { ADMIN_USER_MESSAGES } from './admin-user-edit.ts';

export function adminSessionRoutes(ctx: AppContext) {
  /** The user of the path, or null (the route answers 404) for a malformed or unknown id. */
  const targetOf = (text: string | undefined) => {
    const id = parseId(text);
    return id === null ? null : (getUserById(ctx.db, id) ?? null);
  };

  return new Hono<AppEnv>()
    .get('/:id/sessions', requireAdmin, (c) => {
      const target = targetOf(c.req.param('id'));
      if (!target) return errorResponse(c, 404, ADMIN_USER_MESSAGES.notFound);
      return c.json({ sessions: presentSessions(listLiveSessionsOfUser(ctx.db, target.id, ctx.now()), c.get('sessionId')) });
    })
    .delete('/:id/sessions', requireAdmin, (c) => {
      const target = targetOf(c.req.param('id'));
      if (!target) return errorResponse(c, 404, ADMIN_USER_MESSAGES.notFound);
      invalidateUserSessions(ctx, target.id);
      return c.body(null, 204);
    })
    .delete('/:id/sessions/:sessionId', requireAdmin, (c) => {
      const target = targetOf(c.req.param('id'));
      if (!target) return errorResponse(c, 404, ADMIN_USER_MESSAGES.notFound);
      const sessionId = c.req.param('sessionId');
      if (!PUBLIC_SESSION_ID.test(sessionId) || !deleteSessionOfUserByPublicId(ctx.db, target.id, sessionId)) {
        return errorResponse(c, 404, SESSION_MESSAGES.notFound);
      }
      return c.body(null, 204);
    });
}
