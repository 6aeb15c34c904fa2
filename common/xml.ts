// Escaping for the XML the product writes: the build's sitemap and RSS feeds (src/lib/) and the update API's
// Sparkle appcast (server/features/updates/). Characters XML 1.0 forbids (most C0 controls, lone surrogates,
// U+FFFE and U+FFFF) are dropped: one stray control character in a post or a release note would otherwise
// make the whole document unreadable to every feed reader or updater. The markup itself is escaped as HTML's
// is (common/escape-html.ts).
import { escapeHtml } from './escape-html.ts';

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
/** The forbidden characters a well-formed string (no lone surrogates) can hold. */
// eslint-disable-next-line no-control-regex
const FORBIDDEN_IN_WELL_FORMED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/**
 * The text without the characters XML forbids. Almost every text has none, and one unicode-aware scan of a
 * feed's rendered HTML cost more than its escaping: two plain checks decide first.
 */
function withoutForbidden(text: string): string {
  return text.isWellFormed() && !FORBIDDEN_IN_WELL_FORMED.test(text) ? text : text.replace(FORBIDDEN, '');
}

/** Text escaped for XML character data and attribute values, without what XML forbids. */
export function escapeXml(text: string): string {
  return escapeHtml(withoutForbidden(text));
}

/** Text as CDATA sections: "]]>" cannot end one early, since it is split across two. */
export function xmlCdata(text: string): string {
  return `<![CDATA[${withoutForbidden(text).replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}

/** YYYY-MM-DD (UTC) of an ISO date, or undefined when it is not a date. */
export function isoDay(iso: string): string | undefined {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 10);
}
