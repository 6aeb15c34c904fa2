// Mailings for the admin screen (docs/product/admin.md#admin-screen, docs/product/api.md#admin; issue 7, item 4), mounted at /api/admin.
// POST /sendmailing only queues: one row per recipient, written with the mailing in one transaction, so
// the mailing exists completely or not at all. server/features/mailings/worker.ts sends in the background; the
// two GETs show its progress.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { writeTransaction } from '../../db/client.ts';
import {
  getMailing,
  insertMailing,
  insertRecipients,
  listMailingSummaries,
  listRecentProblems,
  listRecipientsOfMailing,
  RECIPIENT_STATUSES,
  type RecipientProblem,
  type RecipientRow,
} from './queries.ts';
import { getUsersByIds, listMailableVerifiedUsers } from '../../db/queries/users.ts';
import type { User } from '../../db/schema.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, HttpError } from '../../http/errors.ts';
import { required, requiredText } from '../../http/fields.ts';
import { validate } from '../../http/validate.ts';
import { parseId } from '../../http/fields.ts';

export const MAILING_MESSAGES = {
  queued: (count: number) => `Mailing queued for ${count} ${count === 1 ? 'recipient' : 'recipients'}.`,
  notFound: 'Mailing not found.',
  usersShape: 'The users field must be a list of user ids, or "all-verified".',
  noRecipient: 'Choose at least one recipient.',
  unknownUsers: (ids: number[]) => `Unknown user ids: ${ids.slice(0, 20).join(', ')}${ids.length > 20 ? ', …' : ''}.`,
  nobodyMailable: 'None of the chosen users can receive mailings: they are unsubscribed or banned.',
  nobodyVerified: 'No verified user can receive mailings.',
} as const;

export const ALL_VERIFIED = 'all-verified';
/** Mailings listed by GET /mailings, newest first. */
export const MAILINGS_LISTED = 100;
/** Problem rows shown per mailing in the list. */
export const PROBLEMS_PER_MAILING = 5;
const MAX_RECIPIENT_IDS = 100_000;

/**
 * `users`: an array of ids (numbers or digit strings), the same array as a JSON string (the spec says
 * "json users"), or "all-verified". Duplicates are dropped.
 */
const usersField = z.unknown().transform((value, context): typeof ALL_VERIFIED | number[] => {
  let parsed = value;
  if (typeof parsed === 'string' && parsed.trim().startsWith('[')) {
    try {
      parsed = JSON.parse(parsed);
    } catch {
      // Reported below as the wrong shape.
    }
  }
  if (parsed === ALL_VERIFIED) return ALL_VERIFIED;
  const fail = (message: string) => {
    context.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  if (parsed === undefined || parsed === null || parsed === '') return fail(required('users'));
  if (!Array.isArray(parsed) || parsed.length > MAX_RECIPIENT_IDS) return fail(MAILING_MESSAGES.usersShape);
  if (parsed.length === 0) return fail(MAILING_MESSAGES.noRecipient);
  const ids = parsed.map((item: unknown) => (typeof item === 'number' ? item : typeof item === 'string' && /^\d{1,15}$/.test(item) ? Number(item) : Number.NaN));
  if (ids.some((id) => !Number.isSafeInteger(id) || id <= 0)) return fail(MAILING_MESSAGES.usersShape);
  return [...new Set(ids)];
});

const sendSchema = z.object({
  users: usersField,
  title: requiredText('title', 255),
  body: requiredText('body', 100_000),
});

const recipientQuerySchema = z.object({
  status: z.enum(RECIPIENT_STATUSES, { error: 'The status must be pending, sent, failed or skipped.' }).optional(),
});

/** Times the worker keeps as epoch ms; the admin screen reads ISO. A retry time means something only while pending. */
function retryTime(row: { status: string; next_attempt_at: number }): string | null {
  return row.status === 'pending' ? new Date(row.next_attempt_at).toISOString() : null;
}

function presentProblem(row: RecipientProblem) {
  return { user_id: row.user_id, email: row.email, status: row.status, attempts: row.attempts, last_error: row.last_error, next_attempt_at: retryTime(row) };
}

function presentRecipient(row: RecipientRow) {
  return {
    user_id: row.user_id,
    name: row.name,
    email: row.email,
    status: row.status,
    attempts: row.attempts,
    last_error: row.last_error,
    next_attempt_at: retryTime(row),
    sent_at: row.sent_at,
  };
}

export function mailingRoutes(ctx: AppContext) {
  const summaries = (options: { limit: number; id?: number }) => {
    const list = listMailingSummaries(ctx.db, options);
    const problems = listRecentProblems(
      ctx.db,
      list.map((mailing) => mailing.id),
      PROBLEMS_PER_MAILING,
    );
    return list.map((mailing) => ({ ...mailing, recent_failures: problems.filter((row) => row.mailing_id === mailing.id).map(presentProblem) }));
  };

  return new Hono<AppEnv>()
    .post('/sendmailing', requireAdmin, smallJsonBody(1024 * 1024), validate('json', sendSchema), (c) => {
      const input = c.req.valid('json');
      const actorId = c.get('user')?.id ?? null;
      const queued = writeTransaction(ctx.db, () => {
        let chosen: User[];
        if (input.users === ALL_VERIFIED) {
          chosen = listMailableVerifiedUsers(ctx.db);
        } else {
          chosen = getUsersByIds(ctx.db, input.users);
          if (chosen.length !== input.users.length) {
            const found = new Set(chosen.map((user) => user.id));
            const message = MAILING_MESSAGES.unknownUsers(input.users.filter((id) => !found.has(id)));
            throw new HttpError(422, message, { users: [message] });
          }
        }
        // Never to someone who unsubscribed, nor to a banned account (whoever ticked it).
        const recipients = chosen.filter((user) => !user.unsubscribed_at && !user.is_banned);
        if (recipients.length === 0) {
          const message = input.users === ALL_VERIFIED ? MAILING_MESSAGES.nobodyVerified : MAILING_MESSAGES.nobodyMailable;
          throw new HttpError(422, message, { users: [message] });
        }
        const mailing = insertMailing(ctx.db, { title: input.title, body: input.body, created_by: actorId, atIso: new Date(ctx.now()).toISOString() });
        insertRecipients(
          ctx.db,
          mailing.id,
          recipients.map((user) => ({ user_id: user.id, email: user.email })),
          ctx.now(),
        );
        return {
          mailing,
          count: recipients.length,
          skipped: { unsubscribed: chosen.filter((user) => user.unsubscribed_at).length, banned: chosen.filter((user) => !user.unsubscribed_at && user.is_banned).length },
        };
      });
      const [summary] = summaries({ limit: 1, id: queued.mailing.id });
      // 202: accepted for sending; the worker delivers it within its interval.
      return c.json({ message: MAILING_MESSAGES.queued(queued.count), mailing: summary, skipped: queued.skipped }, 202);
    })
    .get('/mailings', requireAdmin, (c) => c.json({ mailings: summaries({ limit: MAILINGS_LISTED }) }))
    .get('/mailings/:id', requireAdmin, validate('query', recipientQuerySchema), (c) => {
      const id = parseId(c.req.param('id'));
      const mailing = id === null ? undefined : getMailing(ctx.db, id);
      if (id === null || !mailing) return errorResponse(c, 404, MAILING_MESSAGES.notFound);
      const [summary] = summaries({ limit: 1, id });
      return c.json({
        mailing: { ...summary, body: mailing.body },
        recipients: listRecipientsOfMailing(ctx.db, id, c.req.valid('query').status).map(presentRecipient),
      });
    });
}
