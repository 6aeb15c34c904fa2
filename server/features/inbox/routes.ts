// The admin inbox (docs/product/admin.md#inbox, docs/admin-api.md#inbox; issue 14, part 1), mounted at /api/admin/inbox:
// contact messages and license requests in one list, their read and handled state (shared by all admins), and
// replies mailed through the site's mail and recorded. Grant and decline of license requests: license-request-routes.ts.
//
// A license request's answers from the inbox (docs/product/admin.md#inbox, docs/admin-api.md#inbox), mounted at
// /api/admin/inbox/license-request: Grant trial goes through the license form's own grant (storeLicenseAsAdmin: the
// same dates, flags, events and mail, and the grant closes the request); Decline closes it with a reason mailed to the user,
// whose dashboard then offers Request License again.
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { guardedUser, requireAdmin } from '../../auth/guards.ts';
import { writeTransaction } from '../../db/client.ts';
import type { User } from '../../db/schema.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, HttpError } from '../../http/errors.ts';
import { parseId, requiredText } from '../../http/fields.ts';
import { validate } from '../../http/validate.ts';
import { sendSafely } from '../../mail/transport.ts';
import { inboxReplyEmail, licenseRequestDeclinedEmail } from '../../mail/templates.ts';
import { INBOX_MESSAGES } from './messages.ts';
import { presentInboxItem } from './present.ts';
import {
  countMatchesOutside,
  countUnreadInbox,
  getInboxRow,
  insertInboxReply,
  listInbox,
  markInboxRead,
  repliesOf,
  setInboxAssignee,
  setInboxHandled,
  type InboxKind,
  type InboxRow,
} from './queries.ts';
import { closeOpenLicenseRequests } from '../licensing/index.ts';
import { listLicenseTypes } from '../license-types/index.ts';
import { getUserById, setLicenseRequest } from '../../db/queries/users.ts';
import { licenseKind } from '../licensing/index.ts';
import { answerLicenseWrite, storeLicenseAsAdmin } from '../licensing/index.ts';
import { MAX_EXPIRE_DAYS } from '../licensing/index.ts';
import { AUTO_GRANT_TRIAL_DAYS } from '../licensing/index.ts';
import { toAdminUser } from '../../auth/public-user.ts';

/** Items per page of the inbox list. */
export const INBOX_PAGE_SIZE = 20;
export const INBOX_REPLY_SUBJECT_MAX = 200;
export const INBOX_REPLY_MAX = 10_000;

const listSchema = z.object({
  status: z.enum(['open', 'handled', 'all'], { error: 'The status must be open, handled or all.' }).default('open'),
  q: z.string().trim().max(200, 'The search must not be longer than 200 characters.').optional(),
  page: z.coerce
    .number({ error: 'The page must be a number.' })
    .int('The page must be a whole number.')
    .min(1, 'The page must be at least 1.')
    .max(100_000)
    .default(1),
});

const replySchema = z.object({
  subject: requiredText('subject', INBOX_REPLY_SUBJECT_MAX),
  message: requiredText('message', INBOX_REPLY_MAX),
});

/** The item the path names (`/:kind/:id`), or 404 for a malformed id or an item that does not exist. */
export function inboxTarget(ctx: Pick<AppContext, 'db'>, kind: InboxKind, idText: string | undefined): InboxRow {
  const id = parseId(idText);
  const row = id === null ? undefined : getInboxRow(ctx.db, kind, id);
  if (!row) throw new HttpError(404, INBOX_MESSAGES.notFound);
  return row;
}

/** An item as every write answers it: fresh from the database, with its replies, and the new unread count. */
export function inboxAnswer(ctx: Pick<AppContext, 'db'>, kind: InboxKind, id: number) {
  const row = getInboxRow(ctx.db, kind, id);
  if (!row) throw new HttpError(404, INBOX_MESSAGES.notFound);
  return { item: presentInboxItem(row, repliesOf(ctx.db, [row]).get(`${kind}:${id}`) ?? []), unread: countUnreadInbox(ctx.db) };
}

const kindOf = (text: string | undefined): InboxKind => (text === 'contact' ? 'contact' : 'license-request');

export function inboxRoutes(ctx: AppContext) {
  const nowIso = () => new Date(ctx.now()).toISOString();

  // 404 before the body is read: nothing to say about a body for an item that does not exist.
  const existingItem = createMiddleware<AppEnv>(async (c, next) => {
    inboxTarget(ctx, kindOf(c.req.param('kind')), c.req.param('id'));
    await next();
  });

  /** Read, handled, reopen: one small write and the item as it is now. */
  const changeState = (c: Context<AppEnv>, change: (kind: InboxKind, id: number, admin: User) => void, message: string) => {
    const kind = kindOf(c.req.param('kind'));
    const id = parseId(c.req.param('id')) ?? 0;
    writeTransaction(ctx.db, () => change(kind, id, guardedUser(c.get('user'))));
    return c.json({ message, ...inboxAnswer(ctx, kind, id) });
  };

  return new Hono<AppEnv>()
    .get('/', requireAdmin, validate('query', listSchema), (c) => {
      const { status, q, page } = c.req.valid('query');
      const { rows, total } = listInbox(ctx.db, { status, search: q || undefined, page, pageSize: INBOX_PAGE_SIZE });
      const replies = repliesOf(ctx.db, rows);
      return c.json({
        items: rows.map((row) => presentInboxItem(row, replies.get(`${row.kind}:${row.id}`) ?? [])),
        page,
        page_size: INBOX_PAGE_SIZE,
        total,
        page_count: Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE)),
        unread: countUnreadInbox(ctx.db),
        // Nothing found under Open (or Handled) while the other status has matches: the list says so (issue 28, item 13).
        matches_elsewhere: total === 0 ? countMatchesOutside(ctx.db, { status, search: q || undefined }) : 0,
      });
    })
    .get('/unread-count', requireAdmin, (c) => c.json({ unread: countUnreadInbox(ctx.db) }))
    .post('/:kind{contact|license-request}/:id/read', requireAdmin, existingItem, (c) =>
      changeState(c, (kind, id) => markInboxRead(ctx.db, kind, id, nowIso()), INBOX_MESSAGES.read),
    )
    .post('/:kind{contact|license-request}/:id/handled', requireAdmin, existingItem, (c) =>
      changeState(c, (kind, id, admin) => setInboxHandled(ctx.db, kind, id, { handled: true, by: admin.id, atIso: nowIso() }), INBOX_MESSAGES.handled),
    )
    .post('/:kind{contact|license-request}/:id/reopen', requireAdmin, existingItem, (c) =>
      changeState(c, (kind, id, admin) => setInboxHandled(ctx.db, kind, id, { handled: false, by: admin.id, atIso: nowIso() }), INBOX_MESSAGES.reopened),
    )
    .post('/:kind{contact|license-request}/:id/assign', requireAdmin, existingItem, (c) =>
      changeState(c, (kind, id, admin) => setInboxAssignee(ctx.db, kind, id, admin.id), INBOX_MESSAGES.assigned),
    )
    .post('/:kind{contact|license-request}/:id/unassign', requireAdmin, existingItem, (c) =>
      changeState(c, (kind, id) => setInboxAssignee(ctx.db, kind, id, null), INBOX_MESSAGES.unassigned),
    )
    .post('/:kind{contact|license-request}/:id/reply', requireAdmin, existingItem, smallJsonBody(64 * 1024), validate('json', replySchema), async (c) => {
      const admin = guardedUser(c.get('user'));
      const kind = kindOf(c.req.param('kind'));
      const target = inboxTarget(ctx, kind, c.req.param('id'));
      const { subject, message } = c.req.valid('json');
      const original = target.message === null ? null : { createdAt: target.created_at, text: target.message };
      // Sent first, recorded after: the record says what the visitor received, so a reply that did not go is not recorded.
      const sent = await sendSafely(
        ctx.mailer,
        { to: target.email, ...inboxReplyEmail(ctx.config, { subject, message, original, replyTo: admin.email }) },
        ctx.log,
      );
      if (!sent) return errorResponse(c, 502, INBOX_MESSAGES.replyFailed);
      const at = nowIso();
      writeTransaction(ctx.db, () => {
        insertInboxReply(ctx.db, kind, target.id, { subject, message, by: admin.id, atIso: at });
        markInboxRead(ctx.db, kind, target.id, at);
      });
      return c.json({ message: INBOX_MESSAGES.replied, ...inboxAnswer(ctx, kind, target.id) });
    });
}

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
      const admin = guardedUser(c.get('user'));
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
      const admin = guardedUser(c.get('user'));
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

/** The inbox feature as server/app.ts mounts it: the admins' inbox of messages and license requests, at full paths. */
export function inboxFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/admin/inbox/license-request', licenseRequestRoutes(ctx)).route('/api/admin/inbox', inboxRoutes(ctx));
}
