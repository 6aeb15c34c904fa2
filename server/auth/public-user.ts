// The user object clients receive (docs/product/data-model.md#user). An allowlist, not a denylist: a column added to
// the users table later stays private until someone decides to publish it here. Never the password
// hash, session data or the mailing-unsubscribe internals.
import type { Db } from '../db/client.ts';
import { getLicensesOfUser } from '../db/queries/licenses.ts';
import type { User } from '../db/schema.ts';
import { presentLicenses, type LicenseView } from '../features/licensing/present.ts';

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
 * The `{ user, licenses }` answer of login and GET /api/user (docs/product/api.md): the user's own licenses,
 * keys and machines included (docs/admin-api.md#the-license-object-license), their status as of `now`.
 * `twoFactorRequired`: an admin who must turn two-factor on before any admin tool answers
 * (docs/product/accounts.md#two-factor-sign-in).
 */
export function accountPayload(db: Db, user: User, now: number, options: { twoFactorRequired: boolean }): { user: SessionUser; licenses: LicenseView[] } {
  return {
    user: { ...toPublicUser(user), two_factor_required: options.twoFactorRequired },
    licenses: presentLicenses(db, getLicensesOfUser(db, user.id), { viewer: user, now }),
  };
}
