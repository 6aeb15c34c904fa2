// The user object clients receive (docs/product/data-model.md#user). An allowlist, not a denylist: a column added to
// the users table later stays private until someone decides to publish it here. Never the password
// hash, session data or the mailing-unsubscribe internals.
import type { Db } from '../db/client.ts';
import { getLicensesOfUser, type LicenseWithType } from '../db/queries/licenses.ts';
import type { User } from '../db/schema.ts';

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
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof User)[];

export type PublicUser = Pick<User, (typeof PUBLIC_USER_FIELDS)[number]>;

export function toPublicUser(user: User): PublicUser {
  const publicUser: Partial<Record<keyof User, unknown>> = {};
  for (const field of PUBLIC_USER_FIELDS) publicUser[field] = user[field];
  return publicUser as PublicUser;
}

/** The `{ user, licenses }` answer of login and GET /api/user (docs/product/api.md). */
export function accountPayload(db: Db, user: User): { user: PublicUser; licenses: LicenseWithType[] } {
  return { user: toPublicUser(user), licenses: getLicensesOfUser(db, user.id) };
}
