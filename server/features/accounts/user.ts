// The signed-in user's own account (docs/product/api.md#auth-and-user). Profile edits and license requests are
// in account.ts on the same /api/user prefix; the admin's user actions join in their issue.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireUser } from '../../auth/guards.ts';
import { accountPayload } from '../../auth/public-user.ts';

export function userRoutes(ctx: AppContext) {
  return new Hono<AppEnv>().get('/', requireUser, (c) => {
    // requireUser guarantees a user; the check narrows the type.
    const user = c.get('user');
    if (!user) throw new Error('requireUser let an anonymous request through');
    return c.json(accountPayload(ctx, user, ctx.now()));
  });
}
