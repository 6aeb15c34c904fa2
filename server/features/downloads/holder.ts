// Who a browser request is, for the release-access decision (access.ts): a visitor, an unverified user, an
// admin, or a verified user with the grants of their licenses (read only when a gate needs them would save
// one indexed query; it is one prepared statement, run per download request, not per byte).
import type { AppContext } from '../../context.ts';
import type { User } from '../../db/schema.ts';
import { isAdmin } from '../../auth/guards.ts';
import { grantsOfUser } from '../licensing/index.ts';
import type { ReleaseHolder } from './access.ts';

export function holderOfUser(ctx: Pick<AppContext, 'db' | 'now'>, user: User | null): ReleaseHolder {
  if (!user) return { kind: 'visitor' };
  if (!user.email_verified_at) return { kind: 'unverified' };
  if (isAdmin(user)) return { kind: 'admin' };
  return { kind: 'licensed', grants: grantsOfUser(ctx.db, user.id, ctx.now()) };
}
