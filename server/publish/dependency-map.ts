// Which published files a content change touches (docs/decisions/0044-incremental-publish.md): compares the
// snapshot that is live with the next one and names the routes to render again. It follows what each page
// shows (src/pages, src/components), so it must change with them; the byte-for-byte comparison of an
// incremental publish with a full build (tests/server/publish/incremental-equivalence.test.ts) is what
// catches a page that shows something the map does not know about. When it cannot decide, it says "full".
import { isDeepStrictEqual } from 'node:util';
import type { SectionEntry, SiteSnapshot } from '../../common/snapshot-schema.ts';
import { NAMESPACE_LIST } from '../../common/snapshot-types.ts';

export type AffectedRoutes =
  /** Render everything: a full build. */
  | { kind: 'full'; reason: string }
  /** Render these pathnames (Astro's, e.g. `/news/some-section/rss.xml`, `/`), keep every other file. */
  | { kind: 'routes'; paths: string[] };

/**
 * Pages that show only the site's identity and year (the layout), which change nothing here without a
 * full build. Any other route the map does not know is rendered again with every publish, so a page added
 * later is never left stale, only a little slower to publish until the map knows it.
 */
const LAYOUT_ONLY = new Set(['/admin', '/dashboard', '/reset-password', '/reset-pasword/form', '/email/verified', '/search', '/robots.txt']);

/**
 * The routes to render again when `previous` (live) becomes `next`, out of `livePaths` (every pathname of the
 * live build, from the renderer). Added routes (a new section) are the renderer's to find (it compares the
 * route lists); removed ones too.
 */
export function affectedRoutes(previous: SiteSnapshot, next: SiteSnapshot, livePaths: readonly string[]): AffectedRoutes {
  if (!isDeepStrictEqual(previous.site, next.site)) return { kind: 'full', reason: 'the site name or URL changed' };
  if (yearOf(previous) !== yearOf(next)) return { kind: 'full', reason: 'a new year (every page shows it)' };

  const paths = new Set<string>();
  const known = new Set<string>(LAYOUT_ONLY);
  const changed = { any: false };
  const mark = (path: string) => {
    paths.add(path);
    changed.any = true;
  };

  for (const namespace of NAMESPACE_LIST) {
    const before = sorted(previous.namespaces[namespace]);
    const after = sorted(next.namespaces[namespace]);
    // Routes of the namespace as they are live: known, so an untouched one is not rendered.
    known.add(`/${namespace}`);
    for (const section of [...before, ...after]) {
      known.add(`/${namespace}/${section.title_slug}`);
      known.add(`/${namespace}/${section.title_slug}/rss.xml`);
    }
    if (namespace === 'news') for (const feed of NEWS_FEEDS) known.add(feed);

    const navChanged = !isDeepStrictEqual(before.map(navOf), after.map(navOf));
    const beforeById = new Map(before.map((section) => [section.id, section]));
    let namespaceChanged = navChanged;
    for (const section of after) {
      const old = beforeById.get(section.id);
      const sectionChanged = !old || !isDeepStrictEqual(old, section);
      if (sectionChanged) {
        namespaceChanged = true;
        mark(`/${namespace}/${section.title_slug}/rss.xml`);
      }
      // The sidebar (every section's title, slug and place) is on every page of the namespace.
      if (sectionChanged || navChanged) mark(`/${namespace}/${section.title_slug}`);
    }
    if (before.length !== after.length || before.some((section) => !after.some((other) => other.id === section.id))) namespaceChanged = true;
    // /{namespace} shows its first section: whenever the namespace changed at all, render it (one page).
    if (namespaceChanged) {
      mark(`/${namespace}`);
      if (namespace === 'news') for (const feed of NEWS_FEEDS) mark(feed);
    }
  }

  known.add('/');
  if (!isDeepStrictEqual(previous.home, next.home)) mark('/');
  known.add('/downloads');
  known.add('/downloads/rss.xml');
  if (!isDeepStrictEqual(previous.downloads, next.downloads)) {
    mark('/downloads');
    mark('/downloads/rss.xml');
  }
  // The contact details are on /contact only; each legal page on its own path (the footer's links are fixed).
  known.add('/contact');
  if (!isDeepStrictEqual(previous.contact, next.contact)) mark('/contact');
  const legalBefore = new Map(previous.legal_pages.map((page) => [page.slug, page]));
  for (const page of next.legal_pages) {
    known.add(`/${page.slug}`);
    if (!isDeepStrictEqual(legalBefore.get(page.slug), page)) mark(`/${page.slug}`);
  }
  for (const page of previous.legal_pages) known.add(`/${page.slug}`);
  // The sitemap lists every page with its last change: one small file, rendered whenever anything changed.
  known.add('/sitemap.xml');
  if (changed.any) paths.add('/sitemap.xml');
  // Routes the map knows nothing about are rendered every time (see LAYOUT_ONLY).
  for (const path of livePaths) if (!known.has(normalise(path))) paths.add(path);
  return { kind: 'routes', paths: [...paths].sort() };
}

const NEWS_FEEDS = ['/news/rss.xml', '/news/feed.json'];

/** What the sidebar shows of a section on every page of its namespace, in the order it shows it. */
function navOf(section: SectionEntry) {
  return { id: section.id, title: section.title, slug: section.title_slug };
}

/** Sections in their display order (src/lib/posts.ts sortSections: order, then id). */
function sorted(sections: readonly SectionEntry[]): SectionEntry[] {
  return [...sections].sort((a, b) => a.order - b.order || a.id - b.id);
}

function yearOf(snapshot: SiteSnapshot): number {
  return new Date(snapshot.generated_at).getUTCFullYear();
}

/** Astro's pathnames carry no trailing slash but the root's; compare them the same way. */
export function normalise(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
