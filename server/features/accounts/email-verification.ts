// Following the verification link, and asking for a new one (docs/product/accounts.md#e-mail-verification, docs/product/api.md, docs/product/messages.md#error-catalogue). Mounted at /api/auth.
// The link is a GET opened from a mail client: it needs no session and no XSRF header (csrfProtection only
// guards unsafe methods); the signature is what proves it. Verifying twice is harmless and lands on success.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { emailHashMatches, sendVerificationEmail } from '../../auth/email-verification.ts';
import { requireUser } from '../../auth/guards.ts';
import { createRateLimiter } from '../../auth/rate-limit.ts';
import { verifySignedUrl } from '../../auth/signed-urls.ts';
import { getUserById, markEmailVerified } from '../../db/queries/users.ts';
import { errorResponse } from '../../http/errors.ts';
import { parseId } from '../../http/fields.ts';

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
      markEmailVerified(ctx.db, user.id, new Date(ctx.now()).toISOString());
      return c.redirect(resultPage(1, VERIFICATION_MESSAGES.verified, email), 302);
    })
    .post('/email/resend', requireUser, async (c) => {
      const user = c.get('user');
      if (!user) throw new Error('requireUser let an anonymous request through');
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
