// The user object clients receive (docs/product/data-model.md#user). An allowlist, not a denylist: a column added to
// the users table later stays private until someone decides to publish it here. Never the password
// hash, session data or the mailing-unsubscribe internals.
import type { Config } from '../env.ts';
import type { Db } from '../db/client.ts';
import { firstAdminEmail } from '../db/queries/users.ts';
import { countUnreadInbox } from '../features/inbox/queries.ts';
import { isAdmin } from './guards.ts';
import { getLicensesOfUser } from '../db/queries/licenses.ts';
import type { User } from '../db/schema.ts';
import { presentLicenses } from '../features/licensing/present.ts';

export const PUBLIC_USER_FIELDS = [
  'id',
  'name',
  'surname',
  'companyName',
  'email',
  'email_verified_at',
  'address',
  'postcode',
  'county',
  'country',
  'phone',
  'vat',
  'license',
  'license_request',
  'license_granted',
  'is_banned',
  'role',
  'two_factor_enabled_at',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof User)[];

export type PublicUser = Pick<User, (typeof PUBLIC_USER_FIELDS)[number]>;

export function toPublicUser(user: User): PublicUser {
  const publicUser: Partial<Record<keyof User, unknown>> = {};
  for (const field of PUBLIC_USER_FIELDS) publicUser[field] = user[field];
  return publicUser as PublicUser;
}

/** The signed-in user as their own session answers show it: `two_factor_required` says an admin must enrol first. */
export type SessionUser = PublicUser & { two_factor_required: boolean };

/**
 * The `{ user, licenses, support_email, inbox_unread }` answer of login and GET /api/user (docs/product/api.md): the user's own
 * licenses, keys and machines included (docs/admin-api.md#the-license-object-license), their status as of `now`;
 * the address the dashboard names when a license request fails (SUPPORT_EMAIL, else the first admin's;
 * docs/product/accounts.md#dashboard); and for admins the inbox's unread count, which the nav bar shows as a badge
 * (docs/product/admin.md#inbox): no extra request on any page. Null for everyone else.
 * `twoFactorRequired`: an admin who must turn two-factor on before any admin tool answers
 * (docs/product/accounts.md#two-factor-sign-in).
 */
export function accountPayload(ctx: { db: Db; config: Pick<Config, 'supportEmail'> }, user: User, now: number, options: { twoFactorRequired: boolean }) {
  return {
    user: { ...toPublicUser(user), two_factor_required: options.twoFactorRequired } satisfies SessionUser,
    licenses: presentLicenses(ctx.db, getLicensesOfUser(ctx.db, user.id), { viewer: user, now }),
    support_email: ctx.config.supportEmail ?? firstAdminEmail(ctx.db) ?? null,
    inbox_unread: isAdmin(user) ? countUnreadInbox(ctx.db) : null,
  };
}
