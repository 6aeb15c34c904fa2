// The message of a mailing (issue 7, item 4): the admin's markdown rendered by the site's own pipeline
// (sanitised, so embedded HTML cannot smuggle scripts into mail clients; no image from another site, so
// no tracking pixel: common/markdown/mailing-html.ts), the same markdown as readable plain text for the
// text part (common/markdown/plain-text.ts), and in both an unsubscribe link signed for the recipient,
// which the List-Unsubscribe headers carry too (RFC 2369, RFC 8058).
import type { AppContext } from '../../context.ts';
import { ONE_CLICK_UNSUBSCRIBE_PATH } from '../../auth/csrf.ts';
import { signUrl } from '../../auth/signed-urls.ts';
import type { renderMailingHtml, renderPlainText } from '../../../common/markdown/index.ts';
import type { MailMessage } from '../../mail/transport.ts';
import { footerLink, mailDocument } from '../../mail/layout.ts';

/** The one path exempt from the XSRF check for RFC 8058's one-click POST (server/auth/csrf.ts). */
export const UNSUBSCRIBE_PATH = ONE_CLICK_UNSUBSCRIBE_PATH;
/**
 * Signed URLs must expire; an unsubscribe link should work for as long as the mail sits in an inbox, so
 * ten years. The signature covers the user id: a changed id is refused.
 */
export const UNSUBSCRIBE_LINK_LIFETIME_MS = 10 * 365 * 24 * 60 * 60 * 1000;

export function unsubscribeLink(ctx: Pick<AppContext, 'config' | 'db' | 'now'>, userId: number): string {
  return `${ctx.config.siteUrl}${signUrl(ctx, UNSUBSCRIBE_PATH, { expiresAt: ctx.now() + UNSUBSCRIBE_LINK_LIFETIME_MS, params: { user: String(userId) } })}`;
}

export interface MailingContent {
  title: string;
  body: string;
}

/** Rendering is the costly part: done once per mailing, then combined with each recipient's link. */
export interface RenderedMailing {
  subject: string;
  text: string;
  htmlBody: string;
}

/** The markdown pipeline's two mail renderings, once loaded (server/lazy-libraries.ts: loadMarkdown). */
export interface MailingMarkdown {
  renderPlainText: typeof renderPlainText;
  renderMailingHtml: typeof renderMailingHtml;
}

export function renderMailing(markdown: MailingMarkdown, siteUrl: string, mailing: MailingContent): RenderedMailing {
  return {
    // The admin's title is the subject, on one line (header values cannot hold line breaks).
    subject: mailing.title.replace(/\s+/g, ' ').trim(),
    text: markdown.renderPlainText(mailing.body, { siteUrl }),
    htmlBody: markdown.renderMailingHtml(mailing.body, siteUrl),
  };
}

export function mailingMessage(
  site: { siteName: string; siteUrl: string },
  rendered: RenderedMailing,
  recipient: { email: string; unsubscribeUrl: string },
): MailMessage {
  const footerText = `You receive this because you have an account at ${site.siteName} (${site.siteUrl}).\nTo stop receiving these mailings, open:\n${recipient.unsubscribeUrl}`;
  const html = mailDocument({
    title: rendered.subject,
    content: rendered.htmlBody,
    footer: `You receive this because you have an account at ${footerLink(site.siteUrl, site.siteName)}.<br>\n${footerLink(recipient.unsubscribeUrl, 'Unsubscribe from these mailings')}`,
    article: true,
  });
  return {
    to: recipient.email,
    subject: rendered.subject,
    text: `${rendered.subject}\n\n${rendered.text}\n\n-- \n${footerText}\n`,
    html,
    // RFC 2369: mail clients show their own "unsubscribe" button for it; RFC 8058: with the second header,
    // the provider unsubscribes by POSTing `List-Unsubscribe=One-Click` to the link, no page visit needed.
    headers: { 'List-Unsubscribe': `<${recipient.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
