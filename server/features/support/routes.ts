// The signed-in user's support history (issue 28, section 1; docs/decisions/0046-support-and-legal-pages.md), mounted at
// /api/user/support: GET lists their own contact messages and license requests with the admins' replies and where each
// stands; POST …/{kind}/{id}/reply adds their answer to that same inbox item, which waits for the admins again (open and
// unread) and is mailed to them like a contact message. A user reaches only their own items: license requests by user id,
// contact messages by their address once verified (an unverified address proves nothing, as for the own-data export).
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireUser, guardedUser } from '../../auth/guards.ts';
import { createRateLimiter } from '../../auth/rate-limit.ts';
import { writeTransaction } from '../../db/client.ts';
import type { User } from '../../db/schema.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { HttpError } from '../../http/errors.ts';
import { parseId, requiredText } from '../../http/fields.ts';
import { tooManyRequests } from '../../http/throttle.ts';
import { validate } from '../../http/validate.ts';
import { supportAnswerAdminEmail } from '../../mail/templates.ts';
import {
  getInboxRow,
  INBOX_MESSAGES,
  insertInboxReply,
  listInboxRowsOf,
  reopenForUserAnswer,
  repliesOf,
  type InboxKind,
  type InboxRow,
} from '../inbox/index.ts';
import { notifyAdmins } from '../../mail/notify-admins.ts';
import { presentSupportItem } from './present.ts';

/** As long as a contact message (server/features/contact/routes.ts). */
export const SUPPORT_ANSWER_MAX = 5000;
/** Ten answers per user in ten minutes: a conversation, not a flood of admin mail (docs/product/constants.md#rate-limits). */
export const SUPPORT_ANSWER_THROTTLE = { limit: 10, windowMs: 10 * 60_000 } as const;

const answerSchema = z.object({ message: requiredText('message', SUPPORT_ANSWER_MAX) });

/** The contact messages of a user are those of their address, and only once it is theirs for sure. */
const ownerOf = (user: User) => ({ userId: user.id, verifiedEmail: user.email_verified_at ? user.email : null });

/** The item, if it is the user's own; 404 otherwise, so nobody learns which items exist. */
function ownItem(ctx: Pick<AppContext, 'db'>, user: User, kind: InboxKind, idText: string | undefined): InboxRow {
  const id = parseId(idText);
  const row = id === null ? undefined : getInboxRow(ctx.db, kind, id);
  const owner = ownerOf(user);
  const mine =
    row !== undefined &&
    (kind === 'license-request' ? row.user_id === owner.userId : owner.verifiedEmail !== null && row.email.toLowerCase() === owner.verifiedEmail.toLowerCase());
  if (!mine) throw new HttpError(404, INBOX_MESSAGES.notFound);
  return row;
}

const kindOf = (text: string | undefined): InboxKind => (text === 'contact' ? 'contact' : 'license-request');

export function supportRoutes(ctx: AppContext) {
  const throttle = createRateLimiter({ ...SUPPORT_ANSWER_THROTTLE, db: ctx.db, name: 'support-answer', now: ctx.now });
  const answerOf = (row: InboxRow) => presentSupportItem(row, repliesOf(ctx.db, [row]).get(`${row.kind}:${row.id}`) ?? []);

  // Answers that count: the item is the caller's own (404 otherwise, before counting), then one hit per answer. A middleware,
  // so the handler's only answer is its success and the client's answer type is read from it (docs/decisions/0021).
  const ownAndCounted = createMiddleware<AppEnv>(async (c, next) => {
    const user = guardedUser(c.get('user'));
    ownItem(ctx, user, kindOf(c.req.param('kind')), c.req.param('id'));
    const decision = throttle.consume(String(user.id));
    if (!decision.allowed) return tooManyRequests(c, decision.retryAfterSeconds, 'message');
    await next();
  });

  return new Hono<AppEnv>()
    .get('/', requireUser, (c) => {
      const rows = listInboxRowsOf(ctx.db, ownerOf(guardedUser(c.get('user'))));
      const replies = repliesOf(ctx.db, rows);
      return c.json({ items: rows.map((row) => presentSupportItem(row, replies.get(`${row.kind}:${row.id}`) ?? [])) });
    })
    .post('/:kind{contact|license-request}/:id/reply', requireUser, smallJsonBody(64 * 1024), validate('json', answerSchema), ownAndCounted, async (c) => {
      const user = guardedUser(c.get('user'));
      const kind = kindOf(c.req.param('kind'));
      const target = ownItem(ctx, user, kind, c.req.param('id'));
      const { message } = c.req.valid('json');
      const about = target.message === null ? 'their license request' : target.message.replace(/\s+/g, ' ').slice(0, 80);
      writeTransaction(ctx.db, () => {
        insertInboxReply(ctx.db, kind, target.id, {
          subject: `Answer from ${user.name}`,
          message,
          by: user.id,
          atIso: new Date(ctx.now()).toISOString(),
          author: 'user',
        });
        reopenForUserAnswer(ctx.db, kind, target.id);
      });
      // Stored first: a mail that fails loses nothing, the item waits in the inbox (as for the contact form).
      await notifyAdmins(ctx, supportAnswerAdminEmail(ctx.config, { name: user.name, email: user.email, about, message }));
      const row = getInboxRow(ctx.db, kind, target.id);
      if (!row) throw new HttpError(404, INBOX_MESSAGES.notFound);
      return c.json({ message: INBOX_MESSAGES.answered, item: answerOf(row) });
    });
}

/** The support feature as server/app.ts mounts it: a user's own support history and answers, at full paths. */
export function supportFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/user/support', supportRoutes(ctx));
}
