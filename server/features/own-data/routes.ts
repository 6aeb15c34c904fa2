// A user's own data (docs/product/accounts.md#your-data, docs/decisions/0025-own-data.md; issue 13, item 5),
// mounted at /api/user: GET /export, the JSON file of everything kept about them, and DELETE /account,
// deleting the account after the password (and, when on, a two-factor code) is given again.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { clearSessionCookies } from '../../auth/cookies.ts';
import { rotateXsrfToken } from '../../auth/csrf.ts';
import { requireUser, guardedUser } from '../../auth/guards.ts';
import { createRateLimiter } from '../../auth/rate-limit.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { required, tooLong } from '../../http/fields.ts';
import { tooManyRequests } from '../../http/throttle.ts';
import { validate } from '../../http/validate.ts';
import { accountDeletedEmail } from '../../mail/templates.ts';
import { sendSafely } from '../../mail/transport.ts';
import { assertNotLastAdmin, LAST_ADMIN_SELF_DELETE_MESSAGE } from '../users/index.ts';
import { deleteUserWithOwnedData } from '../users/index.ts';
import { confirmIdentity } from '../two-factor/index.ts';
import { buildAccountExport, exportFileName } from './present.ts';

/**
 * Five attempts per account in 15 minutes (docs/product/constants.md#rate-limits): whoever holds a stolen
 * session must not get to guess the password here (argon2 is also CPU-bound).
 */
export const DELETE_ACCOUNT_THROTTLE = { limit: 5, windowMs: 15 * 60_000 } as const;

const deleteAccountSchema = z.object({
  password: z
    .string({ error: required('password') })
    .min(1, required('password'))
    .max(1024, tooLong('password', 1024)),
  // Checked by confirmIdentity for users with two-factor sign-in on; ignored for the others.
  code: z
    .string({ error: 'The code field must be a string.' })
    .trim()
    .max(64, tooLong('code', 64))
    .nullish()
    .transform((value) => value || undefined),
});

export function ownDataRoutes(ctx: AppContext) {
  const deleteThrottle = createRateLimiter({ ...DELETE_ACCOUNT_THROTTLE, db: ctx.db, name: 'account-delete', now: ctx.now });

  return new Hono<AppEnv>()
    .get('/export', requireUser, (c) => {
      const user = guardedUser(c.get('user'));
      const document = buildAccountExport(ctx, user, c.get('sessionId'));
      // A file to keep, not an answer to cache: no-store, like every private answer.
      return c.body(JSON.stringify(document, null, 2), 200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="${exportFileName(ctx.now())}"`,
        'Cache-Control': 'no-store',
      });
    })
    .delete('/account', requireUser, smallJsonBody(), validate('json', deleteAccountSchema), async (c) => {
      const user = guardedUser(c.get('user'));
      // Counted before the (slow) check, so parallel guesses cannot slip past the limit.
      const decision = deleteThrottle.consume(String(user.id));
      if (!decision.allowed) return tooManyRequests(c, decision.retryAfterSeconds, 'password');
      const { password, code } = c.req.valid('json');
      await confirmIdentity(ctx, user, { password, code });
      deleteUserWithOwnedData(ctx, user.id, {
        assertAllowed: (target) => assertNotLastAdmin(ctx.db, target, LAST_ADMIN_SELF_DELETE_MESSAGE),
        publishReason: `author ${user.id} deleted their account`,
      });
      // The confirmation (issue 28, item 5), to a proven address only: an unverified one may be someone else's. After the
      // deletion, which stands whether or not the mail goes (sendSafely never throws).
      if (user.email_verified_at) await sendSafely(ctx.mailer, { to: user.email, ...accountDeletedEmail(ctx.config, { name: user.name }) }, ctx.log);
      // The sessions are gone with the account; the browser forgets its cookie now.
      clearSessionCookies(c, ctx.config);
      // Its token was bound to the session that ended (docs/decisions/0027-transport-limits.md).
      rotateXsrfToken(c, ctx, null);
      c.set('user', null);
      c.set('sessionId', null);
      return c.body(null, 204);
    });
}

/** The own-data feature as server/app.ts mounts it: a user's own data: export and account deletion, at full paths. */
export function ownDataFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/user', ownDataRoutes(ctx));
}
