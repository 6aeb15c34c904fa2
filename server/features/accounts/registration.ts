// Registration (docs/product/routes.md#navigation-bar, docs/product/api.md; issue 3, item 3): POST /api/auth/create. Mounted at /api/auth beside the
// login router. A new account is not logged in: the modal shows the server's message and the user logs in
// once they choose to (docs/decisions/0007-accounts-api.md).
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireBotToken } from '../../auth/botcheck.ts';
import { sendVerificationEmail } from '../../auth/email-verification.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { passwordConfirmationField, passwordField, withPasswordConfirmation } from '../../auth/password-rules.ts';
import { createRateLimiter } from '../../auth/rate-limit.ts';
import { insertUser } from '../../db/queries/users.ts';
import type { User } from '../../db/schema.ts';
import { clientIp, rateLimitAddress } from '../../http/client-ip.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { validationFailed } from '../../http/errors.ts';
import { emailField, requiredText } from '../../http/fields.ts';
import { refuseWhenThrottled, tooManyRequests } from '../../http/throttle.ts';
import { validate } from '../../http/validate.ts';
import { emailRefusal } from './email-availability.ts';

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
    name: requiredText('name', 255),
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
        user = insertUser(ctx.db, { name, email, password_hash: passwordHash });
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
