// Changing the password from the dashboard (docs/product/accounts.md#change-password; issue 13, item 3),
// PUT /api/user/password. The current password proves it is the owner and not someone at an unlocked
// screen; every other session ends (whoever knew the old password is signed out) while this one stays;
// the owner is mailed, so a change they did not make does not go unnoticed.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireUser } from '../../auth/guards.ts';
import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { passwordConfirmationField, passwordField, withPasswordConfirmation } from '../../auth/password-rules.ts';
import { createRateLimiter } from '../../auth/rate-limit.ts';
import { invalidateOtherSessions } from '../../auth/sessions.ts';
import { writeTransaction } from '../../db/client.ts';
import { updatePassword } from '../../db/queries/users.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { validationFailed } from '../../http/errors.ts';
import { required, tooLong } from '../../http/fields.ts';
import { tooManyRequests } from '../../http/throttle.ts';
import { validate } from '../../http/validate.ts';
import { passwordChangedEmail } from '../../mail/templates.ts';
import { sendSafely } from '../../mail/transport.ts';
import { deletePasswordResetToken } from './password-reset-queries.ts';

export const PASSWORD_CHANGE_MESSAGES = {
  changed: 'Your password has been changed. Every other session has been signed out.',
  wrongPassword: 'The password is incorrect.',
} as const;

/**
 * Attempts per user within 15 minutes (docs/product/constants.md#rate-limits): a stolen session cannot be
 * used to guess the password behind it, which the login's limits would otherwise not see.
 */
export const PASSWORD_CHANGE_THROTTLE = { limit: 5, windowMs: 15 * 60_000 } as const;

/** What the account's current password is checked with: any string the login would take. */
export const currentPasswordField = (field: string) =>
  z
    .string({ error: required(field) })
    .min(1, required(field))
    .max(1024, tooLong(field, 1024));

const passwordChangeSchema = withPasswordConfirmation(
  z.object({
    current_password: currentPasswordField('current password'),
    password: passwordField,
    password_confirmation: passwordConfirmationField,
  }),
);

export function passwordChangeRoutes(ctx: AppContext) {
  const throttle = createRateLimiter({ ...PASSWORD_CHANGE_THROTTLE, db: ctx.db, name: 'password-change', now: ctx.now });

  return new Hono<AppEnv>().put('/password', requireUser, smallJsonBody(), validate('json', passwordChangeSchema), async (c) => {
    const user = c.get('user');
    if (!user) throw new Error('requireUser let an anonymous request through');
    const { current_password: currentPassword, password } = c.req.valid('json');
    // Counted before the (slow) check, so parallel guesses cannot slip past the limit.
    const decision = throttle.consume(String(user.id));
    if (!decision.allowed) return tooManyRequests(c, decision.retryAfterSeconds, 'current_password');
    if (!(await verifyPassword(user.password_hash, currentPassword))) {
      return validationFailed(c, { current_password: [PASSWORD_CHANGE_MESSAGES.wrongPassword] });
    }

    const passwordHash = await hashPassword(password);
    writeTransaction(ctx.db, () => {
      updatePassword(ctx.db, user.id, passwordHash, new Date(ctx.now()).toISOString());
      // A reset link mailed earlier would set the password again behind the owner's back.
      deletePasswordResetToken(ctx.db, user.id);
      invalidateOtherSessions(ctx, user.id, c.get('sessionId'));
    });
    // The password is changed already; a failed notice is logged and changes nothing.
    await sendSafely(ctx.mailer, { to: user.email, ...passwordChangedEmail(ctx.config, { name: user.name }) }, ctx.log);
    return c.json({ message: PASSWORD_CHANGE_MESSAGES.changed });
  });
}
