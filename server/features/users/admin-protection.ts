// The rules that keep the admin screen reachable (issue 7, item 1): an admin cannot ban, delete or demote
// themselves (a slip of the mouse would lock them out), and nobody can ban, delete or demote the last
// admin who can still sign in. Checked inside the write transaction, so two admins removing each other
// at the same moment cannot both succeed.
import type { Db } from '../../db/client.ts';
import { countActiveAdmins } from '../../db/queries/users.ts';
import type { User } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';

export type AdminRemoval = 'ban' | 'delete' | 'demote';

export const ADMIN_PROTECTION_MESSAGES = {
  self: {
    ban: 'You cannot ban yourself.',
    delete: 'You cannot delete your own account.',
    demote: 'You cannot remove your own admin role.',
  },
  lastAdmin: {
    ban: 'The last admin cannot be banned.',
    delete: 'The last admin cannot be deleted.',
    demote: 'The last admin cannot lose the admin role.',
  },
} as const satisfies Record<string, Record<AdminRemoval, string>>;

/** A user deleting their own account (DELETE /api/user/account) while the last admin who can sign in. */
export const LAST_ADMIN_SELF_DELETE_MESSAGE = 'You are the last admin: give another user the admin role before deleting your account.';

/** Whether the user counts toward "admins who can still sign in". */
export function isActiveAdmin(user: Pick<User, 'role' | 'is_banned'>): boolean {
  return user.role === 'admin' && !user.is_banned;
}

/**
 * Throws 403 when the actor targets themselves, 422 when the target is the last active admin. Call it
 * inside writeTransaction, before the write.
 */
export function assertAdminRemovalAllowed(db: Db, actorId: number, target: User, removal: AdminRemoval): void {
  if (target.id === actorId) throw new HttpError(403, ADMIN_PROTECTION_MESSAGES.self[removal]);
  assertNotLastAdmin(db, target, ADMIN_PROTECTION_MESSAGES.lastAdmin[removal]);
}

/**
 * Throws 422 with `message` when the target is the last active admin. The one last-admin rule, for the
 * admin's actions above and for a user deleting their own account (where removing oneself is the point).
 * Call it inside writeTransaction, before the write.
 */
export function assertNotLastAdmin(db: Db, target: User, message: string): void {
  if (isActiveAdmin(target) && countActiveAdmins(db) <= 1) throw new HttpError(422, message);
}
