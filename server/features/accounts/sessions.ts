// The signed-in user's sessions (docs/product/accounts.md#sessions, docs/product/api.md#sessions-password-and-e-mail; issue 13,
// item 2), mounted at /api/user/sessions: the list, signing out one session, and signing out every other.
// Sessions are read from the database on every request (server/auth/session-middleware.ts), so a session
// ended here answers 401 on its very next request.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireUser } from '../../auth/guards.ts';
import { invalidateOtherSessions } from '../../auth/sessions.ts';
import { deleteSessionOfUserByPublicId, listLiveSessionsOfUser } from '../../db/queries/sessions.ts';
import type { User } from '../../db/schema.ts';
import { errorResponse } from '../../http/errors.ts';
import { presentSessions } from './session-list.ts';

export const SESSION_MESSAGES = {
  notFound: 'Session not found.',
} as const;

/** A public id as generatePublicSessionId makes it; anything else cannot name a session. */
export const PUBLIC_SESSION_ID = /^[A-Za-z0-9_-]{16}$/;

export function sessionRoutes(ctx: AppContext) {
  const currentUser = (user: User | null): User => {
    if (!user) throw new Error('requireUser let an anonymous request through');
    return user;
  };

  return new Hono<AppEnv>()
    .get('/', requireUser, (c) => {
      const user = currentUser(c.get('user'));
      return c.json({ sessions: presentSessions(listLiveSessionsOfUser(ctx.db, user.id, ctx.now()), c.get('sessionId')) });
    })
    .post('/revoke-others', requireUser, (c) => {
      const user = currentUser(c.get('user'));
      invalidateOtherSessions(ctx, user.id, c.get('sessionId'));
      return c.body(null, 204);
    })
    .delete('/:id', requireUser, (c) => {
      const user = currentUser(c.get('user'));
      const id = c.req.param('id');
      // Only the caller's own sessions: another user's id answers exactly like an unknown one.
      if (!PUBLIC_SESSION_ID.test(id) || !deleteSessionOfUserByPublicId(ctx.db, user.id, id)) return errorResponse(c, 404, SESSION_MESSAGES.notFound);
      return c.body(null, 204);
    });
}
