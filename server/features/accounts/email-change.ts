// Changing the account's e-mail address (docs/product/accounts.md#change-e-mail; issue 13, item 4), mounted at
// /api/user. PUT /email checks the password and the new address (as registration does) and mails a signed
// link to the new address; nothing changes until that link is followed, so the old address keeps signing in.
// The old address is told at once, so its owner can still stop a change they did not ask for.
//
// The link needs no table: it is signed (server/auth/signed-urls.ts) and carries the new address and a hash
// of the account's current address and password hash. Once either changes (another confirmed change, a
// password change or reset) the link is dead, so the owner's password reset also voids a change an intruder
// asked for. Following it makes the new address the account's, verified; voids reset links (already bound
// to the old address); and ends every other session (docs/decisions/0024-session-control.md).
import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireUser } from '../../auth/guards.ts';
import { verifyPassword } from '../../auth/passwords.ts';
import { createRateLimiter } from '../../auth/rate-limit.ts';
import { invalidateOtherSessions } from '../../auth/sessions.ts';
import { signUrl, verifySignedUrl } from '../../auth/signed-urls.ts';
import { writeTransaction } from '../../db/client.ts';
import { changeEmail, getUserById } from '../../db/queries/users.ts';
import type { User } from '../../db/schema.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, validationFailed } from '../../http/errors.ts';
import { emailField, parseId } from '../../http/fields.ts';
import { tooManyRequests } from '../../http/throttle.ts';
import { validate } from '../../http/validate.ts';
import { emailChangeNoticeEmail, emailChangeVerificationEmail, LINK_LIFETIME_MINUTES } from '../../mail/templates.ts';
import { sendSafely } from '../../mail/transport.ts';
import { emailRefusal } from './email-availability.ts';
import { currentPasswordField, PASSWORD_CHANGE_MESSAGES } from './password-change.ts';
import { deletePasswordResetToken } from './password-reset-queries.ts';

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

/** Binds a link to the account as it is now: a new address or a new password hash kills it. */
function accountState(user: Pick<User, 'email' | 'password_hash'>): string {
  return createHash('sha256').update(`${user.email.trim().toLowerCase()}\n${user.password_hash}`).digest('hex');
}

function stateMatches(user: Pick<User, 'email' | 'password_hash'>, state: string): boolean {
  return /^[0-9a-f]{64}$/.test(state) && timingSafeEqual(Buffer.from(accountState(user), 'hex'), Buffer.from(state, 'hex'));
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
      params: { email: newEmail, state: accountState(user) },
    })}`;

  return new Hono<AppEnv>()
    .put('/email', requireUser, smallJsonBody(), validate('json', emailChangeSchema), async (c) => {
      const user = c.get('user');
      if (!user) throw new Error('requireUser let an anonymous request through');
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
      // Like the verification link (server/features/accounts/email-verification.ts): opened from a mail
      // client, with or without a session; the signature is checked before anything is looked up.
      const invalid = () => c.redirect(resultPage(0, EMAIL_CHANGE_MESSAGES.invalid, ''), 302);
      if (verifySignedUrl(ctx, c.req.url) !== 'valid') return invalid();
      const id = parseId(c.req.param('id'));
      const parsedEmail = emailField.safeParse(c.req.query('email'));
      const state = c.req.query('state') ?? '';
      if (id === null || !parsedEmail.success) return invalid();
      const newEmail = parsedEmail.data;

      const outcome = writeTransaction(ctx.db, () => {
        const user = getUserById(ctx.db, id);
        if (!user || user.is_banned || !stateMatches(user, state)) return 'invalid' as const;
        // Taken (or its domain banned) since the link was sent: refused as at the request.
        const refusal = emailRefusal(ctx.db, newEmail);
        if (refusal) return refusal;
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
