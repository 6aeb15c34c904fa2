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
import type { AppContext, AppEnv } from '../../context.ts';
import { verifySignedUrl } from '../../auth/signed-urls.ts';
import { getUserById, markUnsubscribed } from '../../db/queries/users.ts';
import { escapeHtml } from '../../mail/layout.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { parseId } from '../../http/fields.ts';

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
