// Mailings for the admin screen (docs/product/admin.md#admin-screen, docs/product/api.md#admin; issue 7, item 4), mounted at /api/admin.
// POST /sendmailing only queues: one row per recipient, written with the mailing in one transaction, so
// the mailing exists completely or not at all. server/features/mailings/job.ts sends in the background; the
// two GETs show its progress.
//
// The unsubscribe link at the foot of every mailing and in its List-Unsubscribe header (issue 7, item 4;
// issue 17, item 9; docs/product/admin.md#mailings): /api/mailing/unsubscribe?user=…&expires=…&signature=….
// The signature (server/auth/signed-urls.ts) proves we made the link for that user; it is the only
// authority, since the link is opened from a mail client with no session.
// - GET shows a confirmation page with one button and changes nothing: link scanners and previews that
//   fetch every link in a mail must not unsubscribe anyone.
// - POST unsubscribes: the page's button, and the one-click POST (RFC 8058, `List-Unsubscribe=One-Click`)
//   a mail provider sends without cookies, which is why this path alone skips the XSRF check
//   (isOneClickUnsubscribePath in server/auth/csrf.ts). Unsubscribing twice is harmless.
// Both answer a small HTML page, since a person reads it.
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
import { getUsersByIds, listMailableVerifiedUsers, getUserById, markUnsubscribed } from '../../db/queries/users.ts';
import type { User } from '../../db/schema.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, HttpError } from '../../http/errors.ts';
import { required, requiredText, parseId } from '../../http/fields.ts';
import { validate } from '../../http/validate.ts';
import { verifySignedUrl } from '../../auth/signed-urls.ts';
import { escapeHtml } from '../../../common/escape-html.ts';

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
  const ids = parsed.map((item: unknown) =>
    typeof item === 'number' ? item : typeof item === 'string' && /^\d{1,15}$/.test(item) ? Number(item) : Number.NaN,
  );
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
          skipped: {
            unsubscribed: chosen.filter((user) => user.unsubscribed_at).length,
            banned: chosen.filter((user) => !user.unsubscribed_at && user.is_banned).length,
          },
        };
      });
      // Committed: the primary's worker starts sending now, not at its next tick.
      ctx.wake('mailing');
      const [summary] = summaries({ limit: 1, id: queued.mailing.id });
      // 202: accepted for sending; the worker delivers it in the background.
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

export const UNSUBSCRIBE_MESSAGES = {
  confirm: 'Do you want to stop receiving our mailings? Messages about your account (such as password resets) still reach you.',
  button: 'Unsubscribe',
  done: 'You have been unsubscribed. You will not receive our mailings any more.',
  invalid: 'This unsubscribe link is invalid or has expired. Please use the link from a recent mailing, or contact us.',
} as const;

/** The one-click body is `List-Unsubscribe=One-Click` (a few dozen bytes); the form's is the same. */
const UNSUBSCRIBE_BODY_LIMIT = 1024;

interface PageSite {
  siteName: string;
  siteUrl: string;
  year: number;
}

function page(site: PageSite, heading: string, content: string): string {
  const { siteName, siteUrl, year } = site;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(siteName)} ${year} - ${escapeHtml(heading)}</title>`,
    '<style>body{margin:0;padding:48px 16px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1f2933}',
    'main{max-width:520px;margin:0 auto;background:#fff;border-radius:6px;padding:32px}h1{margin:0 0 16px;font-size:22px}a{color:#1d5fa8}',
    'button{font:inherit;padding:12px 24px;min-height:44px;border:0;border-radius:4px;background:#1d5fa8;color:#fff;cursor:pointer}',
    'button:focus-visible{outline:3px solid #1f2933;outline-offset:2px}</style>',
    '</head><body><main>',
    `<h1>${escapeHtml(heading)}</h1>${content}`,
    `<p><a href="${escapeHtml(siteUrl)}/">Back to ${escapeHtml(siteName)}</a></p>`,
    '</main></body></html>',
  ].join('\n');
}

const paragraph = (text: string) => `<p>${escapeHtml(text)}</p>`;

/** The confirmation form posts back to the very link it was opened with: the signature comes along. */
function confirmation(pathAndQuery: string): string {
  return [
    paragraph(UNSUBSCRIBE_MESSAGES.confirm),
    `<form method="post" action="${escapeHtml(pathAndQuery)}">`,
    '<input type="hidden" name="List-Unsubscribe" value="One-Click">',
    `<button type="submit">${escapeHtml(UNSUBSCRIBE_MESSAGES.button)}</button>`,
    '</form>',
  ].join('\n');
}

export function mailingUnsubscribeRoutes(ctx: AppContext) {
  const siteOf = (): PageSite => ({ siteName: ctx.config.siteName, siteUrl: ctx.config.siteUrl, year: new Date(ctx.now()).getUTCFullYear() });
  /** The user the link was signed for, or null for a link we did not sign (or whose user is gone). */
  const signedUser = (url: string, userParam: string | undefined): number | null => {
    const userId = parseId(userParam);
    if (userId === null || verifySignedUrl(ctx, url) !== 'valid' || !getUserById(ctx.db, userId)) return null;
    return userId;
  };

  return new Hono<AppEnv>()
    .get('/unsubscribe', (c) => {
      c.header('Cache-Control', 'no-store');
      if (signedUser(c.req.url, c.req.query('user')) === null) return c.html(page(siteOf(), 'Link not valid', paragraph(UNSUBSCRIBE_MESSAGES.invalid)), 403);
      const url = new URL(c.req.url);
      return c.html(page(siteOf(), 'Unsubscribe from mailings', confirmation(`${url.pathname}${url.search}`)));
    })
    .post('/unsubscribe', smallJsonBody(UNSUBSCRIBE_BODY_LIMIT), (c) => {
      c.header('Cache-Control', 'no-store');
      const userId = signedUser(c.req.url, c.req.query('user'));
      if (userId === null || !markUnsubscribed(ctx.db, userId, new Date(ctx.now()).toISOString())) {
        return c.html(page(siteOf(), 'Link not valid', paragraph(UNSUBSCRIBE_MESSAGES.invalid)), 403);
      }
      return c.html(page(siteOf(), 'Unsubscribed', paragraph(UNSUBSCRIBE_MESSAGES.done)));
    });
}

/** The mailings feature as server/app.ts mounts it: mailings and unsubscribing from them, at full paths. */
export function mailingsFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/admin', mailingRoutes(ctx)).route('/api/mailing', mailingUnsubscribeRoutes(ctx));
}
