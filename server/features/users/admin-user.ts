// The user object the admin screen receives: the public user (docs/product/data-model.md) plus what only admins need to
// see. Still an allowlist: never the password hash.
import { PUBLIC_USER_FIELDS, toPublicUser, type PublicUser } from '../../auth/public-user.ts';
import type { User } from '../../db/schema.ts';

/** The admin table builds its columns from these fields (docs/product/admin.md#admin-screen: the column set comes from the first user). */
export const ADMIN_USER_FIELDS = [...PUBLIC_USER_FIELDS, 'unsubscribed_at'] as const satisfies readonly (keyof User)[];

export type AdminUser = PublicUser & Pick<User, 'unsubscribed_at'>;

export function toAdminUser(user: User): AdminUser {
  return { ...toPublicUser(user), unsubscribed_at: user.unsubscribed_at };
}
