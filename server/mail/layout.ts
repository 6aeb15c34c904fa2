// The one e-mail layout: a plain-text rendering and an HTML rendering of the same content. Templates hand
// over plain text only; this file is the single place that turns it into HTML, escaping everything, so a
// name or message typed by a visitor can never become markup in an admin's mail client.
import type { Config } from '../env.ts';
import { escapeHtml } from '../../common/escape-html.ts';

export type MailSite = Pick<Config, 'siteName' | 'siteUrl'>;

export interface MailBody {
  heading: string;
  /** Plain text; line breaks inside a paragraph are kept. */
  paragraphs: string[];
  /** Label/value rows (who sent a message, which user asked), shown as a small table. */
  details?: Array<[label: string, value: string]>;
  /** The one button of the message; in the text part its URL stands on its own line. */
  action?: { label: string; url: string };
  /** Paragraphs after the button (expiry notes, "ignore this if…"). */
  closing?: string[];
}

export function renderText(site: MailSite, body: MailBody): string {
  const blocks = [body.heading, ...body.paragraphs];
  if (body.details?.length) blocks.push(body.details.map(([label, value]) => `${label}: ${value}`).join('\n'));
  if (body.action) blocks.push(`${body.action.label}:\n${body.action.url}`);
  blocks.push(...(body.closing ?? []));
  blocks.push(`-- \n${site.siteName}\n${site.siteUrl}`);
  return `${blocks.join('\n\n')}\n`;
}

/**
 * The small print's colour: 6.1:1 on the grey ground, over the 4.5:1 WCAG AA asks of 12 px text (the lighter
 * #7b8794 it replaced gave 3.4:1).
 */
const SMALL_PRINT = '#52606d';

const styles = {
  body: 'margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1f2933;',
  paragraph: 'margin:0 0 16px;font-size:15px;line-height:1.5;',
  label: `padding:4px 12px 4px 0;font-size:14px;color:${SMALL_PRINT};vertical-align:top;white-space:nowrap;`,
  value: 'padding:4px 0;font-size:14px;vertical-align:top;',
  button: 'display:inline-block;padding:12px 24px;background:#1d5fa8;color:#ffffff;text-decoration:none;border-radius:4px;font-size:15px;',
  fallback: `margin:16px 0;font-size:13px;line-height:1.5;color:${SMALL_PRINT};word-break:break-all;`,
};

/** A link in the footer's small print. */
export function footerLink(href: string, text: string): string {
  return `<a href="${escapeHtml(href)}" style="color:${SMALL_PRINT};">${escapeHtml(text)}</a>`;
}

/**
 * The HTML document every mail is: its title as the heading of a white card on a grey ground, the content
 * under it, the small print below the card. `content` and `footer` are HTML the caller has escaped; an
 * `article` (a mailing, markdown rendered) is wider, with a larger heading, and sets the text size its own
 * paragraphs do not.
 */
export function mailDocument(parts: { title: string; content: string; footer: string; article?: boolean }): string {
  const width = parts.article ? 640 : 560;
  const cardText = parts.article ? 'font-size:15px;line-height:1.5;' : '';
  const heading = `<h1 style="margin:0 0 16px;font-size:${parts.article ? 22 : 20}px;">${escapeHtml(parts.title)}</h1>`;
  const card = [heading, parts.content].filter((part) => part !== '').join('\n');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(parts.title)}</title></head>`,
    `<body style="${styles.body}">`,
    `<div style="max-width:${width}px;margin:0 auto;background:#ffffff;border-radius:6px;padding:32px;${cardText}">${card}</div>`,
    `<p style="max-width:${width}px;margin:16px auto 0;font-size:12px;line-height:1.5;color:${SMALL_PRINT};text-align:center;">${parts.footer}</p>`,
    '</body></html>',
  ].join('\n');
}

function paragraph(text: string, style = styles.paragraph): string {
  return `<p style="${style}">${escapeHtml(text).replace(/\r?\n/g, '<br>')}</p>`;
}

export function renderHtml(site: MailSite, body: MailBody): string {
  const parts = body.paragraphs.map((text) => paragraph(text));
  if (body.details?.length) {
    const rows = body.details.map(
      ([label, value]) =>
        `<tr><td style="${styles.label}">${escapeHtml(label)}</td><td style="${styles.value}">${escapeHtml(value).replace(/\r?\n/g, '<br>')}</td></tr>`,
    );
    parts.push(`<table role="presentation" style="margin:0 0 16px;border-collapse:collapse;">${rows.join('')}</table>`);
  }
  if (body.action) {
    const href = escapeHtml(body.action.url);
    parts.push(`<p style="margin:24px 0;"><a href="${href}" style="${styles.button}">${escapeHtml(body.action.label)}</a></p>`);
    // Some clients strip buttons or block links; the address itself always works when copied.
    parts.push(paragraph(`If the button does not work, copy this address into your browser:\n${body.action.url}`, styles.fallback));
  }
  parts.push(...(body.closing ?? []).map((text) => paragraph(text)));
  return mailDocument({
    title: body.heading,
    content: parts.join('\n'),
    footer: `${escapeHtml(site.siteName)} &middot; ${footerLink(site.siteUrl, site.siteUrl)}`,
  });
}
