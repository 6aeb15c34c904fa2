// Route guards (docs/product/roles.md): 401 when nobody is logged in, 403 when the user lacks the right.
// They read the user that the session middleware (server/auth/session-middleware.ts) put on the context.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context.ts';
import type { User } from '../db/schema.ts';
import { errorResponse } from '../http/errors.ts';

export const UNAUTHENTICATED_MESSAGE = 'Unauthenticated.';
export const ADMIN_TWO_FACTOR_REQUIRED_MESSAGE = 'Two-factor sign-in is required for administrators. Turn it on in your dashboard.';

export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get('user')) return errorResponse(c, 401, UNAUTHENTICATED_MESSAGE);
  await next();
});

export const requireVerifiedUser = createMiddleware<AppEnv>(async (c, next) => {
  const user = c.get('user');
  if (!user) return errorResponse(c, 401, 'You must be logged in to use download');
  if (!user.email_verified_at) return errorResponse(c, 403, 'Only verified user can use download!');
  await next();
});

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const user = c.get('user');
  if (!user) return errorResponse(c, 401, UNAUTHENTICATED_MESSAGE);
  // docs/product/accounts.md#two-factor-sign-in: an admin who must enrol first (the session middleware holds
  // their role back) is told what to do rather than that they are no admin.
  if (c.get('twoFactorEnrollmentRequired')) return errorResponse(c, 403, ADMIN_TWO_FACTOR_REQUIRED_MESSAGE);
  if (user.role !== 'admin') return errorResponse(c, 403, 'This action is unauthorized.');
  await next();
});

export function isAdmin(user: { role: string } | null | undefined): boolean {
  return user?.role === 'admin';
}

/**
 * The user of a request a guard let through (requireUser, requireVerifiedUser, requireAdmin): the one place
 * that narrows `c.get('user')` in such routes. None here means the route lacks its guard, a bug: thrown (a
 * 500), never answered as if the visitor were anonymous.
 */
export function guardedUser(user: User | null): User {
  if (!user) throw new Error('a guarded route has no user: is its requireUser or requireAdmin missing?');
  return user;
}
