// An admin editing any user (issue 7, item 1) through the spec's own PUT /api/user/update/{id}: the
// profile fields users edit themselves, plus e-mail, role, verification, ban and the license-request flag.
// Users editing themselves keep the narrower rules of server/features/profile/routes.ts.
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { invalidateUserSessions } from '../../auth/sessions.ts';
import { findProtectedChanges } from '../../auth/protected-user-fields.ts';
import { deletePasswordResetToken } from '../accounts/index.ts';
import { emailField } from '../../http/fields.ts';
import { HttpError } from '../../http/errors.ts';
import { getUserByEmail, getUserById, updateUserAsAdmin, type AdminUserFields } from '../../db/queries/users.ts';
import type { User } from '../../db/schema.ts';
import { assertAdminRemovalAllowed, isActiveAdmin } from './admin-protection.ts';
import { optionalFlagField } from '../../http/fields.ts';
import { profileSchema } from '../../auth/profile-fields.ts';

export const ADMIN_USER_MESSAGES = {
  updated: 'User updated.',
  notFound: 'User not found.',
  forbidden: 'This action is unauthorized.',
  emailTaken: 'The email has already been taken.',
  readOnly: (fields: string[]) => `These fields cannot be changed here: ${fields.join(', ')}.`,
} as const;

/** What an admin may change beyond the profile; the other protected fields stay read-only (echoes pass). */
const ADMIN_EDITABLE = new Set(['email', 'role', 'is_banned', 'email_verified_at', 'license_request']);

/**
 * Truthy marks the address verified (keeping an existing verification time), falsy clears it: the admin
 * form is a toggle, and it echoes the stored timestamp when untouched.
 */
const verifiedToggle = z
  .union([z.null(), z.boolean(), z.number(), z.string()], { error: 'The email verified field must be true, false or a date.' })
  .transform((value) => !(value === null || value === false || value === 0 || value === '' || value === '0' || value === 'false'));

export const adminUserSchema = profileSchema.extend({
  email: emailField.optional(),
  role: z
    .string({ error: 'The role field must be a string.' })
    .trim()
    .regex(/^[a-z][a-z0-9_-]{0,31}$/i, 'The role must be one word, such as user or admin.')
    .optional(),
  email_verified_at: verifiedToggle.optional(),
  is_banned: optionalFlagField('is banned'),
  license_request: optionalFlagField('license request'),
});

export type AdminUserInput = z.infer<typeof adminUserSchema>;

/** Read-only fields the body would change (license_granted, unsubscribed_at, passwords…). */
export function findReadOnlyChanges(body: unknown, target: User): string[] {
  return findProtectedChanges(body, target).filter((field) => !ADMIN_EDITABLE.has(field));
}

export interface AdminEditOutcome {
  user: User;
  emailChanged: boolean;
  /** Name or role changed: both appear on published posts by this user. */
  authorFieldsChanged: boolean;
}

/**
 * Applies the edit in one write transaction: re-reads actor and target, enforces the self and last-admin
 * rules, and ends the target's sessions when this edit bans them. Throws HttpError for refusals.
 */
export function applyAdminUserEdit(ctx: Pick<AppContext, 'db' | 'now'>, actorId: number, targetId: number, input: AdminUserInput): AdminEditOutcome {
  const { db } = ctx;
  const nowIso = new Date(ctx.now()).toISOString();
  const actor = getUserById(db, actorId);
  if (!actor || !isActiveAdmin(actor)) throw new HttpError(403, ADMIN_USER_MESSAGES.forbidden);
  const current = getUserById(db, targetId);
  if (!current) throw new HttpError(404, ADMIN_USER_MESSAGES.notFound);

  const { email, email_verified_at: verified, role, is_banned: banned, license_request: licenseRequest, ...profile } = input;
  const fields: AdminUserFields = { ...profile };

  let emailChanged = false;
  if (email !== undefined && email !== current.email) {
    emailChanged = email.toLowerCase() !== current.email.toLowerCase();
    const holder = emailChanged ? getUserByEmail(db, email) : undefined;
    if (holder && holder.id !== targetId) throw new HttpError(422, ADMIN_USER_MESSAGES.emailTaken, { email: [ADMIN_USER_MESSAGES.emailTaken] });
    fields.email = email;
  }
  // A new address is unproven whatever the form echoed; a change of letter case proves nothing new either way.
  if (emailChanged) fields.email_verified_at = null;
  else if (verified !== undefined) fields.email_verified_at = verified ? (current.email_verified_at ?? nowIso) : null;

  if (role !== undefined && role !== current.role) {
    if (current.role === 'admin') assertAdminRemovalAllowed(db, actorId, current, 'demote');
    fields.role = role;
  }
  const bansNow = banned === 1 && !current.is_banned;
  if (bansNow) assertAdminRemovalAllowed(db, actorId, current, 'ban');
  if (banned !== undefined) fields.is_banned = banned;
  if (licenseRequest !== undefined) fields.license_request = licenseRequest;

  const user = updateUserAsAdmin(db, targetId, fields, nowIso);
  if (!user) throw new HttpError(404, ADMIN_USER_MESSAGES.notFound);
  // A reset link mailed to the old address must not outlive it (issue 17, item 4;
  // docs/product/accounts.md#password-reset): whoever still holds the old mailbox could take the account.
  if (emailChanged) deletePasswordResetToken(db, targetId);
  // A ban must end access at once, not when the cookie runs out.
  if (bansNow) invalidateUserSessions(ctx, targetId);
  return { user, emailChanged, authorFieldsChanged: user.name !== current.name || user.role !== current.role };
}
