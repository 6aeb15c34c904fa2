// A license request's answers from the inbox (docs/product/admin.md#inbox, docs/admin-api.md#inbox), mounted at
// /api/admin/inbox/license-request: Grant trial goes through the license form's own grant (storeLicenseAsAdmin: the
// same dates, flags, events and mail, and the grant closes the request); Decline closes it with a reason mailed to the user,
// whose dashboard then offers Request License again.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { writeTransaction } from '../../db/client.ts';
import { closeOpenLicenseRequests } from '../../db/queries/license-requests.ts';
import { getUserById, setLicenseRequest } from '../../db/queries/users.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { HttpError } from '../../http/errors.ts';
import { requiredText } from '../../http/fields.ts';
import { validate } from '../../http/validate.ts';
import { sendSafely } from '../../mail/transport.ts';
import { licenseRequestDeclinedEmail } from '../../mail/templates.ts';
import { licenseKind } from '../licenses/license-dates.ts';
import { listLicenseTypes } from '../licenses/license-types-queries.ts';
import { answerLicenseWrite, storeLicenseAsAdmin } from '../licenses/license-writes.ts';
import { MAX_EXPIRE_DAYS } from '../licenses/routes.ts';
import { AUTO_GRANT_TRIAL_DAYS } from '../licensing/auto-grant.ts';
import { toAdminUser } from '../users/admin-user.ts';
import { INBOX_MESSAGES } from './messages.ts';
import { adminOf, inboxAnswer, inboxTarget } from './routes.ts';

export const DECLINE_REASON_MAX = 2000;
/** What the Grant trial form fills in: the trial length the license form and automatic trials use. */
export const INBOX_TRIAL_DAYS = AUTO_GRANT_TRIAL_DAYS;

const daysMessage = 'The days field must be a whole number of days.';
const grantSchema = z.object({
  days: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    z
      .union([z.number(), z.string().trim().regex(/^\d+$/, daysMessage)], {
        error: (issue) => (issue.input === undefined ? 'The days field is required.' : daysMessage),
      })
      .transform(Number)
      .pipe(
        z
          .number()
          .int(daysMessage)
          .min(1, 'The days field must be at least 1.')
          .max(MAX_EXPIRE_DAYS, `The days field must not be greater than ${MAX_EXPIRE_DAYS}.`),
      ),
  ),
});

const declineSchema = z.object({ reason: requiredText('reason', DECLINE_REASON_MAX) });

export function licenseRequestRoutes(ctx: AppContext) {
  const nowIso = () => new Date(ctx.now()).toISOString();

  /**
   * The request the path names, still waiting: 404 when unknown, 409 when handled or ever answered (a reopened request that
   * was granted must not grant a second trial; the license form is there for a change of mind).
   */
  const openRequest = (idText: string | undefined) => {
    const target = inboxTarget(ctx, 'license-request', idText);
    if (target.handled_at !== null || target.outcome !== null || target.user_id === null) throw new HttpError(409, INBOX_MESSAGES.alreadyHandled);
    return { ...target, user_id: target.user_id };
  };

  return new Hono<AppEnv>()
    .post('/:id/grant', requireAdmin, smallJsonBody(), validate('json', grantSchema), async (c) => {
      const admin = adminOf(c.get('user'));
      const { days } = c.req.valid('json');
      const write = writeTransaction(ctx.db, () => {
        const request = openRequest(c.req.param('id'));
        const trial = listLicenseTypes(ctx.db).find((type) => licenseKind(type.name) === 'trial');
        if (!trial) throw new HttpError(422, INBOX_MESSAGES.noTrialType);
        // A trial is active from the moment it is stored, so this is a grant: it clears the user's flag and closes the request.
        return { request, write: storeLicenseAsAdmin(ctx, admin.id, { license_type_id: trial.id, user_id: request.user_id, expire: days }) };
      });
      const answer = await answerLicenseWrite(ctx, write.write, admin);
      return c.json({ ...answer, ...inboxAnswer(ctx, 'license-request', write.request.id) });
    })
    .post('/:id/decline', requireAdmin, smallJsonBody(64 * 1024), validate('json', declineSchema), async (c) => {
      const admin = adminOf(c.get('user'));
      const { reason } = c.req.valid('json');
      const { request, user } = writeTransaction(ctx.db, () => {
        const request = openRequest(c.req.param('id'));
        const at = nowIso();
        closeOpenLicenseRequests(ctx.db, request.user_id, { outcome: 'declined', by: admin.id, atIso: at, reason });
        // The dashboard stops saying "awaiting approval" and offers Request License again.
        setLicenseRequest(ctx.db, request.user_id, false, at);
        return { request, user: getUserById(ctx.db, request.user_id) };
      });
      const mailSent = user
        ? await sendSafely(
            ctx.mailer,
            { to: user.email, ...licenseRequestDeclinedEmail(ctx.config, { name: user.name, reason, replyTo: admin.email }) },
            ctx.log,
          )
        : false;
      return c.json({
        message: mailSent ? INBOX_MESSAGES.declined : INBOX_MESSAGES.declinedMailFailed,
        mail_sent: mailSent,
        // The users table on the same screen shows the cleared request flag without a reload.
        user: user ? toAdminUser(user) : null,
        ...inboxAnswer(ctx, 'license-request', request.id),
      });
    });
}
