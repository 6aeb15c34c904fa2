// The one way a user is deleted (docs/product/accounts.md#your-data, docs/decisions/0025-own-data.md): the
// admin's Delete User (DELETE /api/user/delete/{id}) and a user deleting their own account
// (DELETE /api/user/account) both come here, so both remove and keep the same things.
//
// Removed, in one write transaction: the user row, and by its foreign keys their sessions, password reset
// token, licenses (with their machines, events and reminders) and mailing receipts; plus the contact
// messages sent from the address, when it is verified (an unverified address proves nothing, and the
// export shows those messages on the same condition). Kept, no longer linked to anyone (ON DELETE SET
// NULL): the download log (counts per release stay true), posts they wrote, mailings they created and the
// license events they caused on other users' licenses as an admin.
import type { AppContext } from '../../context.ts';
import { invalidateUserSessions } from '../../auth/sessions.ts';
import { writeTransaction } from '../../db/client.ts';
import { deleteUserById, getUserById, isPostAuthor } from '../../db/queries/users.ts';
import type { User } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import { deleteContactMessagesFrom } from '../contact/index.ts';
import { ADMIN_USER_MESSAGES } from './admin-user-edit.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';
import { toAdminUser } from '../../auth/public-user.ts';

export interface DeleteUserOptions {
  /** The refusals of the caller (who may delete whom), run on the freshly read user before anything is written; they throw HttpError. */
  assertAllowed: (target: User) => void;
  /** Why the published pages are rebuilt when the user wrote posts (their name goes from them). */
  publishReason: string;
}

/** Deletes the user and what they own, or nothing at all (a failure half way rolls everything back). Returns the deleted row. */
export function deleteUserWithOwnedData(ctx: Pick<AppContext, 'db' | 'publisher' | 'now' | 'wake'>, userId: number, options: DeleteUserOptions): User {
  const { target, wasAuthor } = writeTransaction(ctx.db, () => {
    const found = getUserById(ctx.db, userId);
    if (!found) throw new HttpError(404, ADMIN_USER_MESSAGES.notFound);
    options.assertAllowed(found);
    const author = isPostAuthor(ctx.db, userId);
    // The sessions would go with the row by cascade; ending them explicitly says what matters.
    invalidateUserSessions(ctx, userId);
    if (found.email_verified_at) deleteContactMessagesFrom(ctx.db, found.email);
    deleteUserById(ctx.db, userId);
    recordWebhookEvent(ctx, 'user.deleted', toAdminUser(found), ctx.now());
    return { target: found, wasAuthor: author };
  });
  // After the commit: a rolled-back deletion must not rebuild anything.
  if (wasAuthor) ctx.publisher.schedule(options.publishReason);
  return target;
}
