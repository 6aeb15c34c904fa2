// GET /api/mailing/unsubscribe?user=…&expires=…&signature=… (issue 7, item 4): the link at the foot of every
// mailing. Opened from a mail client, so no session and no XSRF header (csrfProtection guards only unsafe
// methods): the signature (server/auth/signed-urls.ts) proves we made the link for that user. Answers a
// small HTML page, since a person reads it. Unsubscribing twice is harmless and shows the same page.
import { Hono } from 'hono';
import type { AppContext, AppEnv } from '../../context.ts';
import { verifySignedUrl } from '../../auth/signed-urls.ts';
import { markUnsubscribed } from '../../db/queries/users.ts';
import { escapeHtml } from '../../mail/layout.ts';
import { parseId } from '../../http/fields.ts';

export const UNSUBSCRIBE_MESSAGES = {
  done: 'You have been unsubscribed. You will not receive our mailings any more.',
  invalid: 'This unsubscribe link is invalid or has expired. Please use the link from a recent mailing, or contact us.',
} as const;

function page(site: { siteName: string; siteUrl: string; year: number }, heading: string, text: string): string {
  const { siteName, siteUrl, year } = site;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(siteName)} ${year} - ${escapeHtml(heading)}</title>`,
    '<style>body{margin:0;padding:48px 16px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1f2933}',
    'main{max-width:520px;margin:0 auto;background:#fff;border-radius:6px;padding:32px}h1{margin:0 0 16px;font-size:22px}a{color:#1d5fa8}</style>',
    '</head><body><main>',
    `<h1>${escapeHtml(heading)}</h1><p>${escapeHtml(text)}</p>`,
    `<p><a href="${escapeHtml(siteUrl)}/">Back to ${escapeHtml(siteName)}</a></p>`,
    '</main></body></html>',
  ].join('\n');
}

export function mailingUnsubscribeRoutes(ctx: AppContext) {
  return new Hono<AppEnv>().get('/unsubscribe', (c) => {
    const site = { siteName: ctx.config.siteName, siteUrl: ctx.config.siteUrl, year: new Date(ctx.now()).getUTCFullYear() };
    c.header('Cache-Control', 'no-store');
    const userId = parseId(c.req.query('user'));
    if (userId === null || verifySignedUrl(ctx, c.req.url) !== 'valid' || !markUnsubscribed(ctx.db, userId, new Date(ctx.now()).toISOString())) {
      return c.html(page(site, 'Link not valid', UNSUBSCRIBE_MESSAGES.invalid), 403);
    }
    return c.html(page(site, 'Unsubscribed', UNSUBSCRIBE_MESSAGES.done));
  });
}
