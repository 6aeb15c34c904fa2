// The signed-in user's own account actions (docs/product/accounts.md#dashboard, docs/product/api.md; issue 3, item 6), mounted at /api/user beside
// GET /api/user: requesting the free trial license (granted at once when the admin's licensing setting says so;
// issue 12, item 7) and editing the profile.
//
// Changing the password from the dashboard (docs/product/accounts.md#change-password; issue 13, item 3),
// PUT /api/user/password. The current password proves it is the owner and not someone at an unlocked
// screen; every other session ends (whoever knew the old password is signed out) while this one stays;
// the owner is mailed, so a change they did not make does not go unnoticed.
//
// Changing the account's e-mail address (docs/product/accounts.md#change-e-mail; issue 13, item 4), mounted at
// /api/user. PUT /email checks the password and the new address (as registration does) and mails a signed
// link to the new address; nothing changes until that link is followed, so the old address keeps signing in.
// The old address is told at once, so its owner can still stop a change they did not ask for.
//
// The link needs no table: it is signed (server/auth/signed-urls.ts) and carries the new address and the
// account's email_change_nonce, which every change of address or password bumps (server/db/queries/users.ts:
// a confirmed change, a password change or reset, an admin's edit of the address). So a link is good once,
// and dies with any such change, even one that later puts the same address back (issue 29, item 1: a link
// bound to the address alone worked again after a change to B and back to A); the owner's password reset
// also voids a change an intruder asked for. Following it makes the new address the account's, verified;
// voids reset links (already bound to the old address); and ends every other session
// (docs/decisions/0024-session-control.md).
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAjaxHeader } from '../../auth/ajax-only.ts';
import { ADMIN_TWO_FACTOR_REQUIRED_MESSAGE, isAdmin, requireUser, guardedUser } from '../../auth/guards.ts';
import { profileSchema } from '../../auth/profile-fields.ts';
import { editUserAsAdmin } from '../users/index.ts';
import { findProtectedChanges } from '../../auth/protected-user-fields.ts';
import { toPublicUser } from '../../auth/public-user.ts';
import { writeTransaction } from '../../db/client.ts';
import { getLicensesOfUser, hasActiveLicense, insertLicenseRequest } from '../licensing/index.ts';
import { getUserById, setLicenseRequest, updateProfile, updatePassword, changeEmail } from '../../db/queries/users.ts';
import type { User } from '../../db/schema.ts';
import { sendSafely } from '../../mail/transport.ts';
import { notifyAdmins } from '../../mail/notify-admins.ts';
import {
  licenseRequestedAdminEmail,
  licenseRequestedUserEmail,
  passwordChangedEmail,
  emailChangeNoticeEmail,
  emailChangeVerificationEmail,
  LINK_LIFETIME_MINUTES,
} from '../../mail/templates.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, validationFailed } from '../../http/errors.ts';
import { parseId, pathId, required, tooLong, emailField } from '../../http/fields.ts';
import { validate } from '../../http/validate.ts';
import { grantTrialAutomatically } from '../licensing/index.ts';
import { sendLicenseGrantedMail } from '../licensing/index.ts';
import { presentLicenses } from '../licensing/index.ts';
import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { passwordConfirmationField, passwordField, withPasswordConfirmation } from '../../auth/password-rules.ts';
import { createRateLimiter } from '../../auth/rate-limit.ts';
import { invalidateOtherSessions } from '../../auth/sessions.ts';
import { tooManyRequests } from '../../http/throttle.ts';
import { deletePasswordResetToken } from '../accounts/index.ts';
import { signUrl, verifySignedUrl } from '../../auth/signed-urls.ts';
import { emailRefusal } from '../accounts/index.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';
import { toAdminUser } from '../../auth/public-user.ts';

export const ACCOUNT_MESSAGES = {
  forbidden: 'This action is unauthorized.',
  activeLicense: 'You already have an active license.',
  notFound: 'User not found.',
  protectedFields: (fields: string[]) => `These fields cannot be changed here: ${fields.join(', ')}.`,
} as const;

/**
 * Who may edit whose profile here: the user their own, an admin anyone's (same fields). In practice an
 * admin's request never gets here: server/features/users/routes.ts is mounted first on the same path and
 * answers admins with the wider admin edit (role, ban, verification; issue 7).
 */
function mayEditProfile(actor: User, targetId: number): boolean {
  return actor.id === targetId || isAdmin(actor);
}

export function accountRoutes(ctx: AppContext) {
  // 403 before validation: refusing to say what would be wrong with a record you may not edit.
  // One path, two editors (docs/product/api.md): an admin edits any user with the admin's fields (the users
  // feature answers); everyone else edits their own profile. An admin who must enrol in two-factor is refused
  // like at every admin route (docs/product/accounts.md#two-factor-sign-in).
  const editAsAdmin = editUserAsAdmin(ctx);
  const adminEdits = createMiddleware<AppEnv>(async (c, next) => {
    if (c.get('twoFactorEnrollmentRequired')) return errorResponse(c, 403, ADMIN_TWO_FACTOR_REQUIRED_MESSAGE);
    const actor = c.get('user');
    if (actor && isAdmin(actor)) return editAsAdmin(c, actor);
    await next();
  });
  const mayEditTarget = createMiddleware<AppEnv>(async (c, next) => {
    const actor = guardedUser(c.get('user'));
    const id = parseId(c.req.param('id'));
    if (id === null || !mayEditProfile(actor, id)) return errorResponse(c, 403, ACCOUNT_MESSAGES.forbidden);
    await next();
  });

  // The client sends the whole user object (docs/product/api.md), so protected fields arrive as echoes of their
  // current values; only an attempt to change one is refused, explicitly rather than silently ignored.
  const refuseProtectedChanges = createMiddleware<AppEnv>(async (c, next) => {
    const target = getUserById(ctx.db, pathId(c.req.param('id')));
    if (!target) return errorResponse(c, 404, ACCOUNT_MESSAGES.notFound);
    const body: unknown = await c.req.json().catch(() => undefined);
    const changed = findProtectedChanges(body, target);
    if (changed.length > 0) return errorResponse(c, 403, ACCOUNT_MESSAGES.protectedFields(changed));
    await next();
  });

  return new Hono<AppEnv>()
    .get('/request-license/:userId', requireUser, requireAjaxHeader, async (c) => {
      const actor = guardedUser(c.get('user'));
      if (c.req.param('userId') !== String(actor.id)) return errorResponse(c, 403, ACCOUNT_MESSAGES.forbidden);
      const outcome = writeTransaction(ctx.db, () => {
        if (hasActiveLicense(ctx.db, actor.id, new Date(ctx.now()).toISOString())) return { kind: 'active' } as const;
        const user = getUserById(ctx.db, actor.id);
        if (!user) throw new Error(`user ${actor.id} vanished during its own request`);
        // Before the "asked already" check: a request made while the setting was off is granted now.
        const trial = grantTrialAutomatically(ctx, user);
        if (trial) return { kind: 'granted', ...trial } as const;
        // Asking again is harmless and sends no second round of mails.
        if (user.license_request) return { kind: 'unchanged', user } as const;
        const at = new Date(ctx.now()).toISOString();
        setLicenseRequest(ctx.db, actor.id, true, at);
        // The admins' inbox item (docs/product/admin.md#inbox): in the same transaction as the flag, so neither exists without the other.
        const request = insertLicenseRequest(ctx.db, actor.id, at);
        recordWebhookEvent(ctx, 'license_request.created', { id: request.id, user: toAdminUser(user), created_at: request.created_at }, ctx.now());
        return { kind: 'requested', user: { ...user, license_request: 1 } } as const;
      });
      if (outcome.kind === 'active') return errorResponse(c, 422, ACCOUNT_MESSAGES.activeLicense);
      let mailSent: boolean | null = null;
      if (outcome.kind === 'requested') {
        const { user } = outcome;
        // The request is stored already; a failed mail is logged and loses nothing.
        await Promise.all([
          notifyAdmins(ctx, licenseRequestedAdminEmail(ctx.config, { user })),
          sendSafely(ctx.mailer, { to: user.email, ...licenseRequestedUserEmail(ctx.config, { name: user.name }) }, ctx.log),
        ]);
      }
      if (outcome.kind === 'granted') {
        const { license, user, typeName } = outcome;
        // The trial is stored already; a failed mail is logged, and the dashboard shows the key anyway.
        mailSent = await sendLicenseGrantedMail(ctx, user, { key: license.key, typeName, expireDate: license.expire_date, maxMachines: license.max_machines });
      }
      return c.json({
        user: toPublicUser(outcome.user),
        licenses: presentLicenses(ctx.db, getLicensesOfUser(ctx.db, actor.id), { viewer: actor, now: ctx.now() }),
        granted: outcome.kind === 'granted',
        mail_sent: mailSent,
      });
    })
    .put('/update/:id', smallJsonBody(), adminEdits, requireUser, mayEditTarget, refuseProtectedChanges, validate('json', profileSchema), (c) => {
      const updated = updateProfile(ctx.db, pathId(c.req.param('id')), c.req.valid('json'), new Date(ctx.now()).toISOString());
      if (!updated) return errorResponse(c, 404, ACCOUNT_MESSAGES.notFound);
      // Keep this request's view current for anything that runs after the handler.
      if (updated.id === c.get('user')?.id) c.set('user', updated);
      return c.json({ user: toPublicUser(updated) });
    });
}

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
    const user = guardedUser(c.get('user'));
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

export const EMAIL_CHANGE_MESSAGES = {
  sent: (email: string) => `Check your new inbox: we sent a link to ${email}. Your e-mail address changes when you follow it.`,
  same: 'This is already your e-mail address.',
  bannedDomain: 'This email domain is not accepted. Please use another address.',
  taken: 'This email address is already in use.',
  mailFailed: 'The email could not be sent. Please try again later or contact admin.',
  changed: 'Your e-mail address has been changed.',
  invalid: 'This e-mail change link is invalid or has expired.',
} as const;

/**
 * Change requests per user per hour (docs/product/constants.md#rate-limits): each sends two mails, one to an
 * address the requester picks, and each checks the password.
 */
export const EMAIL_CHANGE_THROTTLE = { limit: 5, windowMs: 60 * 60_000 } as const;

export const EMAIL_CHANGE_PATH = '/api/user/email/confirm';

const emailChangeSchema = z.object({
  email: emailField,
  password: currentPasswordField('password'),
});

/** The nonce a link carries: the account's email_change_nonce when the link was made, as digits. */
function nonceMatches(user: Pick<User, 'email_change_nonce'>, nonce: string): boolean {
  return /^\d{1,15}$/.test(nonce) && Number(nonce) === user.email_change_nonce;
}

/** The result page of docs/product/accounts.md#e-mail-verification, told it is about a change of address. */
function resultPage(validation: 0 | 1, message: string, email: string): string {
  return `/email/verified?validation=${validation}&kind=email-change&message=${encodeURIComponent(message)}&email=${encodeURIComponent(email)}`;
}

export function emailChangeRoutes(ctx: AppContext) {
  const throttle = createRateLimiter({ ...EMAIL_CHANGE_THROTTLE, db: ctx.db, name: 'email-change', now: ctx.now });

  const changeLink = (user: User, newEmail: string) =>
    `${ctx.config.siteUrl}${signUrl(ctx, `${EMAIL_CHANGE_PATH}/${user.id}`, {
      expiresAt: ctx.now() + LINK_LIFETIME_MINUTES * 60_000,
      params: { email: newEmail, nonce: String(user.email_change_nonce) },
    })}`;

  return new Hono<AppEnv>()
    .put('/email', requireUser, smallJsonBody(), validate('json', emailChangeSchema), async (c) => {
      const user = guardedUser(c.get('user'));
      const { email, password } = c.req.valid('json');
      // Every well-formed request counts, wrong passwords included: it bounds both mails and guesses.
      const decision = throttle.consume(String(user.id));
      if (!decision.allowed) return tooManyRequests(c, decision.retryAfterSeconds, 'email');
      if (!(await verifyPassword(user.password_hash, password))) return validationFailed(c, { password: [PASSWORD_CHANGE_MESSAGES.wrongPassword] });
      if (email.toLowerCase() === user.email.toLowerCase()) return validationFailed(c, { email: [EMAIL_CHANGE_MESSAGES.same] });
      const refusal = emailRefusal(ctx.db, email);
      if (refusal) return validationFailed(c, { email: [refusal === 'taken' ? EMAIL_CHANGE_MESSAGES.taken : EMAIL_CHANGE_MESSAGES.bannedDomain] });

      const verification = emailChangeVerificationEmail(ctx.config, { name: user.name, link: changeLink(user, email) });
      // The link is the whole point of this call, so a failure to send it is reported.
      if (!(await sendSafely(ctx.mailer, { to: email, ...verification }, ctx.log))) return errorResponse(c, 503, EMAIL_CHANGE_MESSAGES.mailFailed);
      await sendSafely(ctx.mailer, { to: user.email, ...emailChangeNoticeEmail(ctx.config, { name: user.name, newEmail: email }) }, ctx.log);
      return c.json({ message: EMAIL_CHANGE_MESSAGES.sent(email) });
    })
    .get('/email/confirm/:id', (c) => {
      c.header('Cache-Control', 'no-store');
      // Like the verification link (server/features/accounts/routes.ts): opened from a mail
      // client, with or without a session; the signature is checked before anything is looked up.
      const invalid = () => c.redirect(resultPage(0, EMAIL_CHANGE_MESSAGES.invalid, ''), 302);
      if (verifySignedUrl(ctx, c.req.url) !== 'valid') return invalid();
      const id = parseId(c.req.param('id'));
      const parsedEmail = emailField.safeParse(c.req.query('email'));
      const nonce = c.req.query('nonce') ?? '';
      if (id === null || !parsedEmail.success) return invalid();
      const newEmail = parsedEmail.data;

      const outcome = writeTransaction(ctx.db, () => {
        const user = getUserById(ctx.db, id);
        if (!user || user.is_banned || !nonceMatches(user, nonce)) return 'invalid' as const;
        // Taken (or its domain banned) since the link was sent: refused as at the request.
        const refusal = emailRefusal(ctx.db, newEmail);
        if (refusal) return refusal;
        // Bumps the nonce: this link, and any other outstanding one, is used up.
        changeEmail(ctx.db, id, newEmail, new Date(ctx.now()).toISOString());
        deletePasswordResetToken(ctx.db, id);
        // The browser following the link keeps its session when it is the account's own.
        const current = c.get('user')?.id === id ? c.get('sessionId') : null;
        invalidateOtherSessions(ctx, id, current);
        return 'changed' as const;
      });
      if (outcome === 'invalid') return invalid();
      if (outcome === 'taken') return c.redirect(resultPage(0, EMAIL_CHANGE_MESSAGES.taken, newEmail), 302);
      if (outcome === 'banned-domain') return c.redirect(resultPage(0, EMAIL_CHANGE_MESSAGES.bannedDomain, newEmail), 302);
      ctx.log.info(`User ${id} changed their e-mail address`);
      return c.redirect(resultPage(1, EMAIL_CHANGE_MESSAGES.changed, newEmail), 302);
    });
}

/** The profile feature as server/app.ts mounts it: the signed-in user's profile, license request, password and e-mail address, at full paths. */
export function profileFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/user', accountRoutes(ctx)).route('/api/user', passwordChangeRoutes(ctx)).route('/api/user', emailChangeRoutes(ctx));
}
