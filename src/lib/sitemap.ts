// sitemap.xml and robots.txt from the snapshot, rebuilt with every publish. docs/product/admin.md#admin-screen, docs/product/constants.md: each
// section at priority 0.8, each post at 0.6 with the post's slug as the URL's anchor; lastmod is the
// content's own update date (not the build date, which would tell crawlers everything changed).
import { sortSections } from './posts.ts';
import type { SiteSnapshot } from '../../common/snapshot-schema.ts';
import { NAMESPACE_LIST } from '../../common/snapshot-types.ts';
import { escapeXml, isoDay } from '../../common/xml.ts';

export const SITEMAP_PRIORITY = { home: 1, section: 0.8, downloads: 0.8, namespace: 0.7, post: 0.6, contact: 0.5 } as const;

export interface SitemapUrl {
  loc: string;
  priority: number;
  /** YYYY-MM-DD */
  lastmod?: string | undefined;
}

export function siteBase(siteUrl: string): string {
  return siteUrl.replace(/\/+$/, '');
}

/** The newest of some ISO dates (undefined when there is none). */
export function latestUpdate(dates: readonly string[]): string | undefined {
  let latest: string | undefined;
  let latestTime = Number.NEGATIVE_INFINITY;
  for (const date of dates) {
    const time = new Date(date).getTime();
    if (!Number.isNaN(time) && time > latestTime) {
      latest = date;
      latestTime = time;
    }
  }
  return latest;
}

const day = (dates: readonly string[]) => {
  const latest = latestUpdate(dates);
  return latest === undefined ? undefined : isoDay(latest);
};

export function sitemapUrls(snapshot: SiteSnapshot): SitemapUrl[] {
  const base = siteBase(snapshot.site.url);
  const urls: SitemapUrl[] = [{ loc: `${base}/`, priority: SITEMAP_PRIORITY.home, lastmod: day(snapshot.home.map((section) => section.updated_at)) }];
  const content: SitemapUrl[] = [];
  for (const namespace of NAMESPACE_LIST) {
    const sections = sortSections(snapshot.namespaces[namespace]);
    const everything = sections.flatMap((section) => [section.updated_at, ...section.posts.map((post) => post.updated_at)]);
    urls.push({ loc: `${base}/${namespace}`, priority: SITEMAP_PRIORITY.namespace, lastmod: day(everything) });
    for (const section of sections) {
      const sectionUrl = `${base}/${namespace}/${section.title_slug}`;
      content.push({
        loc: sectionUrl,
        priority: SITEMAP_PRIORITY.section,
        lastmod: day([section.updated_at, ...section.posts.map((post) => post.updated_at)]),
      });
      for (const post of section.posts)
        content.push({ loc: `${sectionUrl}#${post.title_slug}`, priority: SITEMAP_PRIORITY.post, lastmod: day([post.updated_at]) });
    }
  }
  urls.push({ loc: `${base}/downloads`, priority: SITEMAP_PRIORITY.downloads, lastmod: day(snapshot.downloads.map((item) => item.updated_at)) });
  urls.push({ loc: `${base}/contact`, priority: SITEMAP_PRIORITY.contact });
  return [...urls, ...content];
}

export function renderSitemap(urls: readonly SitemapUrl[]): string {
  const entries = urls.map((url) => {
    const lastmod = url.lastmod ? `<lastmod>${url.lastmod}</lastmod>` : '';
    return `  <url><loc>${escapeXml(url.loc)}</loc>${lastmod}<priority>${url.priority.toFixed(1)}</priority></url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;
}

/** Personal, administrative and API paths stay out of crawlers' way; the sitemap says where the rest is. */
export function renderRobots(siteUrl: string): string {
  return ['User-agent: *', 'Disallow: /admin', 'Disallow: /dashboard', 'Disallow: /api/', '', `Sitemap: ${siteBase(siteUrl)}/sitemap.xml`, ''].join('\n');
}
