// Titles, canonical links and descriptions for every page (docs/product/routes.md#route-table: "<product> <year> …").
// Pure: used by the layout at build time and testable without Astro.

/** "<site> <year> – <page>", the year being the build's. */
export function pageTitle(siteName: string, title: string, year = new Date().getFullYear()): string {
  return `${siteName} ${year} – ${title}`;
}

/** The site's URL plus the page's path, without a trailing slash except for the root. */
export function canonicalUrl(siteUrl: string, pathname: string): string {
  const base = siteUrl.replace(/\/+$/, '');
  const path = pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return `${base}${path === '' ? '/' : path.startsWith('/') ? path : `/${path}`}`;
}

/** First path segment as "/news", or "/" for the home page: what the nav bar highlights. */
export function topLevelSection(pathname: string): string {
  const first = pathname.split('/').find((part) => part !== '');
  return first === undefined ? '/' : `/${first}`;
}

/** Absolute URL for a site-relative asset (Open Graph wants absolute image URLs). */
export function absoluteUrl(siteUrl: string, href: string): string {
  return new URL(href, `${siteUrl.replace(/\/+$/, '')}/`).toString();
}

/**
 * `text.replace(/<[^>]*>/g, ' ')`, in one pass: that pattern scanned the rest of the body again from every
 * `<` that no `>` follows, so thousands of them took time in the square of the body's length.
 */
function withoutTags(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('<', from);
    if (open < 0) break;
    const close = text.indexOf('>', open + 1);
    // No `>` after this `<`: none after any later one either.
    if (close < 0) break;
    out += `${text.slice(from, open)} `;
    from = close + 1;
  }
  return out + text.slice(from);
}

/**
 * Plain text from a markdown body for meta descriptions: markup, code, maths and embedded HTML
 * removed, link text kept, cut at a word boundary.
 */
export function markdownExcerpt(markdown: string, maxLength = 160): string {
  const noMath = markdown
    .replace(/```[\s\S]*?```|~~~[\s\S]*?~~~/g, ' ')
    .replace(/\$\$[\s\S]*?\$\$/g, ' ')
    .replace(/\$[^$\n]+\$/g, ' ');
  const text = withoutTags(noMath)
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[\^[^\]]*\]:?/g, ' ')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/:([a-z0-9_+-]+):/g, ' ')
    .replace(/^\s{0,3}(?:#{1,6}|>|[-+*]|\d+[.)])\s+/gm, '')
    // A table's delimiter row. One class for the whole line: `\s*\|?[\s:|-]+\|?\s*` (what it was) backtracks
    // cubically on a long run of spaces, and a body of nested tags becomes one (a build ran for minutes).
    .replace(/^[ \t:|-]+$/gm, ' ')
    .replace(/[*_~=|#]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= maxLength) return text;
  const cut = text.slice(0, maxLength - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > maxLength / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–—-]+$/, '')}…`;
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "5 January 2026": the build shows the date; the browser may replace it with a relative time. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}
