// The HTML of a mailing (docs/product/admin.md#mailings): the one pipeline's rendering, adapted for mail
// clients, for both the server's message and the admin's preview, so the preview shows what is sent.
// - Site paths (`/news/…`, `/media/…`) become absolute: a mail client has no page to resolve them against.
// - Nothing loads from another site when the mail is opened (issue 17, item 9): a remote image is how a
//   sender learns who opened a mail and when (a tracking pixel), so only images of the site itself and
//   inline data images stay; any other image becomes its alt text. Embedded videos (which mail clients do
//   not play anyway) become links to them.
// Browser-safe like the rest of the pipeline.
import type { Element, ElementContent, Root } from 'hast';
import { finalizeToHtml, parseHtmlFragment } from './finalize.ts';
import { renderMarkdown } from './render.ts';
import { walkElements } from './walk-elements.ts';

const URL_ATTRIBUTES = ['href', 'src', 'poster', 'cite'] as const;
const DATA_IMAGE = /^data:image\/(?:png|gif|jpeg|webp);base64,/i;

/** An absolute URL for a site path, the value itself otherwise. */
function absolute(value: string, siteUrl: string): string {
  return value.startsWith('/') && !value.startsWith('//') ? `${siteUrl}${value}` : value;
}

function isOwn(value: string, siteOrigin: string): boolean {
  try {
    return new URL(value).origin === siteOrigin;
  } catch {
    return false;
  }
}

function link(href: string, text: string): Element {
  return { type: 'element', tagName: 'a', properties: { href }, children: [{ type: 'text', value: text }] };
}

/** What stands in for an element that would load from elsewhere; null: nothing. */
function replacement(element: Element, siteOrigin: string): ElementContent | null | undefined {
  const src = typeof element.properties.src === 'string' ? element.properties.src : undefined;
  const kept = src !== undefined && (isOwn(src, siteOrigin) || (element.tagName === 'img' && DATA_IMAGE.test(src)));
  if (element.tagName === 'img') {
    if (kept) return undefined;
    const alt = typeof element.properties.alt === 'string' ? element.properties.alt.trim() : '';
    return alt ? { type: 'text', value: alt } : null;
  }
  if (element.tagName === 'iframe' || element.tagName === 'video') {
    if (kept && element.tagName === 'video') return undefined;
    const title = typeof element.properties.title === 'string' && element.properties.title ? element.properties.title : 'Video';
    return src ? link(src, title) : null;
  }
  if (element.tagName === 'source' && !kept) return null;
  return undefined;
}

function adaptForMail(tree: Root, siteUrl: string): void {
  const base = siteUrl.replace(/\/+$/, '');
  const siteOrigin = new URL(base).origin;
  walkElements(tree, (element, index, parent) => {
    for (const attribute of URL_ATTRIBUTES) {
      const value = element.properties[attribute];
      if (typeof value === 'string') element.properties[attribute] = absolute(value, base);
    }
    if (typeof element.properties.poster === 'string' && !isOwn(element.properties.poster, siteOrigin)) delete element.properties.poster;
    const instead = replacement(element, siteOrigin);
    if (instead === undefined) return undefined;
    if (instead === null) parent.children.splice(index, 1);
    else parent.children[index] = instead;
    // Visit whatever now sits at this index.
    return index;
  });
}

/** The admin's markdown as the HTML body of a mailing, sanitised like every rendering. */
export function renderMailingHtml(markdown: string, siteUrl: string): string {
  const tree = parseHtmlFragment(renderMarkdown(markdown));
  adaptForMail(tree, siteUrl);
  return finalizeToHtml(tree);
}
