// Forgotten password (docs/product/accounts.md#password-reset, docs/product/api.md, docs/product/messages.md#error-catalogue; issue 3, item 5). Mounted at /api/auth.
// POST /reset-password mails a link to /reset-pasword/form (spelt as the spec's route) and answers the same
// whatever the address: no account, a banned account, or a throttled repeat all look like a sent mail.
// POST /new-password spends the token, sets the password and signs the user out everywhere.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { clearSessionCookies } from '../../auth/cookies.ts';
import { rotateXsrfToken } from '../../auth/csrf.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { passwordConfirmationField, passwordField, withPasswordConfirmation } from '../../auth/password-rules.ts';
import { createRateLimiter } from '../../auth/rate-limit.ts';
import { invalidateUserSessions } from '../../auth/sessions.ts';
import { writeTransaction } from '../../db/client.ts';
import { consumePasswordResetToken, getPasswordResetToken, replacePasswordResetToken } from './password-reset-queries.ts';
import { getUserByEmail, markEmailVerified, updatePassword } from '../../db/queries/users.ts';
import type { User } from '../../db/schema.ts';
import { sendSafely } from '../../mail/transport.ts';
import { LINK_LIFETIME_MINUTES, passwordResetEmail } from '../../mail/templates.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { clientIp, rateLimitAddress } from '../../http/client-ip.ts';
import { errorResponse } from '../../http/errors.ts';
import { emailField, required } from '../../http/fields.ts';
import { refuseWhenThrottled, tooManyRequests } from '../../http/throttle.ts';
import { validate } from '../../http/validate.ts';

export const RESET_MESSAGES = {
  sent: 'Message sent, please check your mailbox.',
  invalidToken: 'This password reset token is invalid or has expired.',
  done: 'Your password has been reset. You can now log in with your new password.',
} as const;

/** One mail per address per minute: repeated clicks do not fill a mailbox (or let anyone else fill it). */
export const RESET_MAIL_THROTTLE = { limit: 1, windowMs: 60_000 } as const;
/** Requests per IP per hour, whatever the address: bounds how many mailboxes one client can bother. */
export const RESET_IP_THROTTLE = { limit: 20, windowMs: 60 * 60 * 1000 } as const;

const resetRequestSchema = z.object({ email: emailField });

const newPasswordSchema = withPasswordConfirmation(
  z.object({
    token: z
      .string({ error: required('token') })
      .trim()
      .min(1, required('token'))
      .max(512, RESET_MESSAGES.invalidToken),
    email: emailField,
    password: passwordField,
    password_confirmation: passwordConfirmationField,
  }),
);

/**
 * The stored hash covers the token and the address it was mailed to (issue 17, item 4): once the account's
 * address changes, by an admin or any other path, the link no longer matches, so a reset can only ever
 * prove (and mark verified) the address the token was sent to. Case-insensitive like the unique index.
 * The token is base64url, so the separator cannot be forged from inside it.
 */
function tokenHash(token: string, sentTo: string): string {
  return createHash('sha256').update(`${token}\n${sentTo.trim().toLowerCase()}`).digest('hex');
}

function hashesEqual(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

export function passwordResetRoutes(ctx: AppContext) {
  const mailThrottle = createRateLimiter({ ...RESET_MAIL_THROTTLE, db: ctx.db, name: 'reset-mail', now: ctx.now });
  const ipThrottle = createRateLimiter({ ...RESET_IP_THROTTLE, db: ctx.db, name: 'reset-ip', now: ctx.now });
  // Rate-limit keys count an IPv6 client per /64 (rateLimitAddress, issue 17 item 8).
  const ipOf = (c: Parameters<typeof clientIp>[0]) => rateLimitAddress(clientIp(c, ctx.config));

  const sendResetLink = (user: User) => {
    // 256 random bits; only their SHA-256 is stored, and replacing the row voids any earlier link.
    const token = randomBytes(32).toString('base64url');
    const now = ctx.now();
    replacePasswordResetToken(ctx.db, {
      userId: user.id,
      tokenHash: tokenHash(token, user.email),
      expiresAt: now + LINK_LIFETIME_MINUTES * 60_000,
      createdAtIso: new Date(now).toISOString(),
    });
    const link = `${ctx.config.siteUrl}/reset-pasword/form?token=${token}&email=${encodeURIComponent(user.email)}`;
    return sendSafely(ctx.mailer, { to: user.email, ...passwordResetEmail(ctx.config, { name: user.name, link }) }, ctx.log);
  };

  return new Hono<AppEnv>()
    .post('/reset-password', smallJsonBody(), refuseWhenThrottled(ipThrottle, ipOf, 'email'), validate('json', resetRequestSchema), (c) => {
      const { email } = c.req.valid('json');
      const decision = ipThrottle.consume(ipOf(c));
      if (!decision.allowed) return tooManyRequests(c, decision.retryAfterSeconds, 'email');
      const user = getUserByEmail(ctx.db, email);
      // Throttled per address whether or not it has an account, so the throttle reveals nothing either.
      if (mailThrottle.consume(email.toLowerCase()).allowed && user && !user.is_banned) {
        // Not awaited: the answer must not take longer for a real account (an SMTP round trip) than for
        // an unknown address. sendSafely never rejects; a failure is logged and the user can ask again.
        void sendResetLink(user);
      }
      return c.json({ message: RESET_MESSAGES.sent }, 200);
    })
    .post('/new-password', smallJsonBody(), validate('json', newPasswordSchema), async (c) => {
      const { token, email, password } = c.req.valid('json');
      const invalid = () => errorResponse(c, 422, RESET_MESSAGES.invalidToken, { token: [RESET_MESSAGES.invalidToken] });
      const user = getUserByEmail(ctx.db, email);
      const stored = user && getPasswordResetToken(ctx.db, user.id);
      // The address on record, not the one typed: a token mailed before the address changed does not match.
      const hash = user ? tokenHash(token, user.email) : '';
      // Unknown address, no token, wrong token, expired token and a changed address all get the one answer.
      if (!user || !stored || !hashesEqual(stored.token_hash, hash) || stored.expires_at <= ctx.now()) return invalid();

      const passwordHash = await hashPassword(password);
      const done = writeTransaction(ctx.db, () => {
        // Spending the token is the check: of two requests racing with one token, only one gets here.
        if (!consumePasswordResetToken(ctx.db, user.id, hash, ctx.now())) return false;
        const at = new Date(ctx.now()).toISOString();
        updatePassword(ctx.db, user.id, passwordHash, at);
        // Following a link sent to the address proves control of it, as the verification link would; the
        // hash matched only because the address is still the one the link was sent to.
        markEmailVerified(ctx.db, user.id, at);
        // Whoever knew the old password (the reason for many resets) is signed out everywhere.
        invalidateUserSessions(ctx, user.id);
        return true;
      });
      if (!done) return invalid();
      if (c.get('user')?.id === user.id) {
        clearSessionCookies(c, ctx.config);
        rotateXsrfToken(c, ctx, null);
      }
      return c.json({ message: RESET_MESSAGES.done }, 200);
    });
}
