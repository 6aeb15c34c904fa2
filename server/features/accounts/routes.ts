// Registration (docs/product/routes.md#navigation-bar, docs/product/api.md; issue 3, item 3): POST /api/auth/create. Mounted at /api/auth beside the
// login router. A new account is not logged in: the modal shows the server's message and the user logs in
// once they choose to (docs/decisions/0007-accounts-api.md).
//
// Following the verification link, and asking for a new one (docs/product/accounts.md#e-mail-verification, docs/product/api.md, docs/product/messages.md#error-catalogue). Mounted at /api/auth.
// The link is a GET opened from a mail client: it needs no session and no XSRF header (csrfProtection only
// guards unsafe methods); the signature is what proves it. Verifying twice is harmless and lands on success.
//
// Forgotten password (docs/product/accounts.md#password-reset, docs/product/api.md, docs/product/messages.md#error-catalogue; issue 3, item 5). Mounted at /api/auth.
// POST /reset-password mails a link to /reset-pasword/form (spelt as the spec's route) and answers the same
// whatever the address: no account, a banned account, or a throttled repeat all look like a sent mail.
// POST /new-password spends the token, sets the password and signs the user out everywhere.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireBotToken } from '../../auth/botcheck.ts';
import { sendVerificationEmail, emailHashMatches } from '../../auth/email-verification.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { passwordConfirmationField, passwordField, withPasswordConfirmation } from '../../auth/password-rules.ts';
import { createRateLimiter } from '../../auth/rate-limit.ts';
import { insertUser, getUserById, markEmailVerified, getUserByEmail, updatePassword } from '../../db/queries/users.ts';
import type { User } from '../../db/schema.ts';
import { clientIp, rateLimitAddress } from '../../http/client-ip.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { validationFailed, errorResponse } from '../../http/errors.ts';
import { emailField, requiredLine, parseId, required } from '../../http/fields.ts';
import { refuseWhenThrottled, tooManyRequests } from '../../http/throttle.ts';
import { validate } from '../../http/validate.ts';
import { emailRefusal } from './email-availability.ts';
import { requireUser, guardedUser } from '../../auth/guards.ts';
import { verifySignedUrl } from '../../auth/signed-urls.ts';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { clearSessionCookies } from '../../auth/cookies.ts';
import { rotateXsrfToken } from '../../auth/csrf.ts';
import { invalidateUserSessions } from '../../auth/sessions.ts';
import { writeTransaction } from '../../db/client.ts';
import { consumePasswordResetToken, getPasswordResetToken, replacePasswordResetToken } from './queries.ts';
import { sendSafely } from '../../mail/transport.ts';
import { LINK_LIFETIME_MINUTES, passwordResetEmail, WELCOME_LINK_LIFETIME_MINUTES, welcomeSetPasswordEmail } from '../../mail/templates.ts';
import { recordWebhookEvent } from '../webhooks/index.ts';
import { toAdminUser } from '../../auth/public-user.ts';

export const REGISTRATION_MESSAGES = {
  success: 'Registration successful. Please check your email and follow the link to verify your address.',
  bannedDomain: 'Registrations from this email domain are not accepted. Please use another address.',
  // Says no more than needed: not whether the account is verified, banned, or whose it is.
  taken: 'This email cannot be used to register. If it is yours, log in or reset your password.',
} as const;

/** Accounts (or attempts that get as far as the e-mail checks) per IP per hour: REGISTRATIONS_PER_HOUR, default 10. */
export const REGISTRATION_WINDOW_MS = 60 * 60 * 1000;

const registrationSchema = withPasswordConfirmation(
  z.object({
    name: requiredLine('name', 255),
    email: emailField,
    password: passwordField,
    password_confirmation: passwordConfirmationField,
    // Verified (and spent) by requireBotToken before this schema runs.
    g_token: z.string().max(20_000).nullish(),
  }),
);

/** The unique index on e-mail (COLLATE NOCASE) refused the insert: another registration won the race. */
function isUniqueViolation(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if ((cause as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') return true;
  }
  return false;
}

/** user.verified for the integrations (docs/integrations.md#events), inside the transaction that verified the address. */
function announceVerified(ctx: Pick<AppContext, 'db' | 'now' | 'wake'>, userId: number): void {
  const user = getUserById(ctx.db, userId);
  if (user) recordWebhookEvent(ctx, 'user.verified', toAdminUser(user), ctx.now());
}

export function registrationRoutes(ctx: AppContext) {
  const throttle = createRateLimiter({
    db: ctx.db,
    name: 'registration',
    limit: ctx.config.registrationsPerHour,
    windowMs: REGISTRATION_WINDOW_MS,
    now: ctx.now,
  });
  // Rate-limit keys count an IPv6 client per /64 (rateLimitAddress, issue 17 item 8).
  const ipOf = (c: Parameters<typeof clientIp>[0]) => rateLimitAddress(clientIp(c, ctx.config));

  return new Hono<AppEnv>().post(
    '/create',
    smallJsonBody(),
    refuseWhenThrottled(throttle, ipOf, 'email'),
    // A failed bot check counts as a registration attempt (issue 17, item 1).
    requireBotToken(ctx, { field: 'email', onFailure: (c) => throttle.hit(ipOf(c)) }),
    validate('json', registrationSchema),
    async (c) => {
      const { name, email, password } = c.req.valid('json');
      // Counted only for well-formed requests: a visitor fixing typos is not throttled, but probing which
      // addresses are registered is.
      const decision = throttle.consume(ipOf(c));
      if (!decision.allowed) return tooManyRequests(c, decision.retryAfterSeconds, 'email');

      const refusal = emailRefusal(ctx.db, email);
      if (refusal) return validationFailed(c, { email: [refusal === 'taken' ? REGISTRATION_MESSAGES.taken : REGISTRATION_MESSAGES.bannedDomain] });

      const passwordHash = await hashPassword(password);
      let user: User;
      try {
        user = writeTransaction(ctx.db, () => {
          const created = insertUser(ctx.db, { name, email, password_hash: passwordHash });
          recordWebhookEvent(ctx, 'user.created', toAdminUser(created), ctx.now());
          return created;
        });
      } catch (error) {
        if (isUniqueViolation(error)) return validationFailed(c, { email: [REGISTRATION_MESSAGES.taken] });
        throw error;
      }
      ctx.log.info(`Registered user ${user.id}`);
      // A failed mail does not undo the account: the user can log in and ask for a new link.
      await sendVerificationEmail(ctx, user);
      return c.json({ message: REGISTRATION_MESSAGES.success }, 201);
    },
  );
}

export const VERIFICATION_MESSAGES = {
  verified: 'Your email has been verified.',
  invalid: 'This verification link is invalid or has expired.',
  alreadyVerified: 'Your email is already verified.',
  sent: 'New link sent. Check your email.',
  mailFailed: 'The email could not be sent. Please try again later or contact admin.',
  tooMany: (retryAfterSeconds: number) => {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    return `Too many verification emails requested. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
  },
} as const;

/**
 * Three resends per account per hour (issue 17, item 3; it was six a minute, for ever), on top of the
 * daily cap per recipient that every account mail counts in (ACCOUNT_MAILS_PER_DAY, server/mail/recipient-cap.ts).
 */
export const RESEND_THROTTLE = { limit: 3, windowMs: 60 * 60_000 } as const;

/** The result page of docs/product/accounts.md#e-mail-verification; values encoded with %20 (not +), which every decoder reads back. */
function resultPage(validation: 0 | 1, message: string, email: string): string {
  return `/email/verified?validation=${validation}&message=${encodeURIComponent(message)}&email=${encodeURIComponent(email)}`;
}

export function emailVerificationRoutes(ctx: AppContext) {
  const resendThrottle = createRateLimiter({ ...RESEND_THROTTLE, db: ctx.db, name: 'verification-resend', now: ctx.now });

  return new Hono<AppEnv>()
    .get('/email/verify/:id/:hash', (c) => {
      c.header('Cache-Control', 'no-store');
      // The signature is checked before the id is even looked up (issue 17, item 2): an unsigned or forged
      // link gets the one answer with no address, so guessing an address's hash and trying ids cannot
      // tell "registered, and its id". Only a link we signed (even expired, so it can be re-sent) shows
      // the address it was made for (docs/product/accounts.md#e-mail-verification).
      const check = verifySignedUrl(ctx, c.req.url);
      const id = check === 'invalid' ? null : parseId(c.req.param('id'));
      const user = id !== null ? getUserById(ctx.db, id) : undefined;
      // A signed link for an address the account no longer has is dead and shows nothing either.
      const linkMatchesUser = user !== undefined && emailHashMatches(user.email, c.req.param('hash'));
      const email = linkMatchesUser ? user.email : '';
      if (!linkMatchesUser || check !== 'valid') return c.redirect(resultPage(0, VERIFICATION_MESSAGES.invalid, email), 302);
      writeTransaction(ctx.db, () => {
        if (markEmailVerified(ctx.db, user.id, new Date(ctx.now()).toISOString())) announceVerified(ctx, user.id);
      });
      return c.redirect(resultPage(1, VERIFICATION_MESSAGES.verified, email), 302);
    })
    .post('/email/resend', requireUser, async (c) => {
      const user = guardedUser(c.get('user'));
      // Every request counts, even those answered "already verified": the limit protects the mail server.
      const decision = resendThrottle.consume(String(user.id));
      if (!decision.allowed) {
        c.header('Retry-After', String(decision.retryAfterSeconds));
        return errorResponse(c, 429, VERIFICATION_MESSAGES.tooMany(decision.retryAfterSeconds));
      }
      // 200, not an error: what the user wanted (a verified address) is already true, and the client
      // reloads the user to hide the banner. `sent` tells the client whether to say "check your mailbox"
      // (issue 14: the banner said so even when nothing was sent).
      if (user.email_verified_at) return c.json({ message: VERIFICATION_MESSAGES.alreadyVerified, sent: false }, 200);
      // The mail is the whole point of this call, so unlike registration a failure is reported.
      if (!(await sendVerificationEmail(ctx, user))) return errorResponse(c, 503, VERIFICATION_MESSAGES.mailFailed);
      return c.json({ message: VERIFICATION_MESSAGES.sent, sent: true }, 200);
    });
}

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

/**
 * Mails a link to /reset-pasword/form that sets a new password: a reset the user asked for, or the first
 * password of an account made for them through the integrations' API (docs/integrations.md). 256 random bits;
 * only their SHA-256 is stored, and replacing the row voids any earlier link.
 */
export function mailPasswordLink(ctx: Pick<AppContext, 'db' | 'now' | 'config' | 'mailer' | 'log'>, user: User, kind: 'reset' | 'welcome') {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.now();
  replacePasswordResetToken(ctx.db, {
    userId: user.id,
    tokenHash: tokenHash(token, user.email),
    expiresAt: now + (kind === 'welcome' ? WELCOME_LINK_LIFETIME_MINUTES : LINK_LIFETIME_MINUTES) * 60_000,
    createdAtIso: new Date(now).toISOString(),
  });
  const link = `${ctx.config.siteUrl}/reset-pasword/form?token=${token}&email=${encodeURIComponent(user.email)}`;
  const content =
    kind === 'welcome' ? welcomeSetPasswordEmail(ctx.config, { name: user.name, link }) : passwordResetEmail(ctx.config, { name: user.name, link });
  return sendSafely(ctx.mailer, { to: user.email, ...content }, ctx.log);
}

export function passwordResetRoutes(ctx: AppContext) {
  const mailThrottle = createRateLimiter({ ...RESET_MAIL_THROTTLE, db: ctx.db, name: 'reset-mail', now: ctx.now });
  const ipThrottle = createRateLimiter({ ...RESET_IP_THROTTLE, db: ctx.db, name: 'reset-ip', now: ctx.now });
  // Rate-limit keys count an IPv6 client per /64 (rateLimitAddress, issue 17 item 8).
  const ipOf = (c: Parameters<typeof clientIp>[0]) => rateLimitAddress(clientIp(c, ctx.config));

  const sendResetLink = (user: User) => mailPasswordLink(ctx, user, 'reset');

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
        if (markEmailVerified(ctx.db, user.id, at)) announceVerified(ctx, user.id);
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

/** The accounts feature as server/app.ts mounts it: registration, e-mail verification and password reset, at full paths. */
export function accountsFeature(ctx: AppContext) {
  return new Hono<AppEnv>()
    .route('/api/auth', registrationRoutes(ctx))
    .route('/api/auth', emailVerificationRoutes(ctx))
    .route('/api/auth', passwordResetRoutes(ctx));
}
