// The user object clients receive (docs/product/data-model.md#user). An allowlist, not a denylist: a column added to
// the users table later stays private until someone decides to publish it here. Never the password
// hash, session data or the mailing-unsubscribe internals.
//
// The user object the admin screen receives: the public user (docs/product/data-model.md) plus what only admins need to
// see. Still an allowlist: never the password hash.
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

/** The admin table builds its columns from these fields (docs/product/admin.md#admin-screen: the column set comes from the first user). */
export const ADMIN_USER_FIELDS = [...PUBLIC_USER_FIELDS, 'unsubscribed_at'] as const satisfies readonly (keyof User)[];

export type AdminUser = PublicUser & Pick<User, 'unsubscribed_at'>;

export function toAdminUser(user: User): AdminUser {
  return { ...toPublicUser(user), unsubscribed_at: user.unsubscribed_at };
}
