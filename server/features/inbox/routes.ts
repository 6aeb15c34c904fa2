// The admin inbox (docs/product/admin.md#inbox, docs/admin-api.md#inbox; issue 14, part 1), mounted at /api/admin/inbox:
// contact messages and license requests in one list, their read and handled state (shared by all admins), and
// replies mailed through the site's mail and recorded. Grant and decline of license requests: license-request-routes.ts.
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { writeTransaction } from '../../db/client.ts';
import type { User } from '../../db/schema.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, HttpError } from '../../http/errors.ts';
import { parseId, requiredText } from '../../http/fields.ts';
import { validate } from '../../http/validate.ts';
import { sendSafely } from '../../mail/transport.ts';
import { inboxReplyEmail } from '../../mail/templates.ts';
import { INBOX_MESSAGES } from './messages.ts';
import { presentInboxItem } from './present.ts';
import {
  countUnreadInbox,
  getInboxRow,
  insertInboxReply,
  listInbox,
  markInboxRead,
  repliesOf,
  setInboxHandled,
  type InboxKind,
  type InboxRow,
} from './queries.ts';

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

/** The acting admin (requireAdmin ran before). */
export function adminOf(user: User | null): User {
  if (!user) throw new Error('requireAdmin let an anonymous request through');
  return user;
}

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
    writeTransaction(ctx.db, () => change(kind, id, adminOf(c.get('user'))));
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
    .post('/:kind{contact|license-request}/:id/reply', requireAdmin, existingItem, smallJsonBody(64 * 1024), validate('json', replySchema), async (c) => {
      const admin = adminOf(c.get('user'));
      const kind = kindOf(c.req.param('kind'));
      const target = inboxTarget(ctx, kind, c.req.param('id'));
      const { subject, message } = c.req.valid('json');
      const original = target.message === null ? null : { createdAt: target.created_at, text: target.message };
      // Sent first, recorded after: the record says what the visitor received, so a reply that did not go is not recorded.
      const sent = await sendSafely(
        ctx.mailer,
        { to: target.email, ...inboxReplyEmail(ctx.config, { name: target.name, subject, message, original, replyTo: admin.email }) },
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
