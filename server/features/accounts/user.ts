// The signed-in user's own account (docs/product/api.md#auth-and-user). Profile edits and license requests are
// in account.ts on the same /api/user prefix; the admin's user actions join in their issue.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireUser } from '../../auth/guards.ts';
import { accountPayload } from '../../auth/public-user.ts';
import { getUserById } from '../../db/queries/users.ts';

export function userRoutes(ctx: AppContext) {
  return new Hono<AppEnv>().get('/', requireUser, (c) => {
    // requireUser guarantees a user; the check narrows the type.
    const user = c.get('user');
    if (!user) throw new Error('requireUser let an anonymous request through');
    const enrol = c.get('twoFactorEnrollmentRequired');
    // An admin who must enrol acts as a user (session-middleware.ts); the answer shows the account as it is.
    const account = enrol ? (getUserById(ctx.db, user.id) ?? user) : user;
    return c.json(accountPayload(ctx, account, ctx.now(), { twoFactorRequired: enrol }));
  });
}
