// RSS 2.0 and JSON Feed 1.1 from the snapshot: news as a whole (/news/rss.xml, /news/feed.json) and
// every section of every namespace (/{namespace}/{section}/rss.xml). The snapshot holds published
// posts only, so nothing else can reach a feed. Bodies are the site's own rendered (sanitised) HTML,
// with root-relative links made absolute because feed readers show them away from the site.
import { markdownExcerpt } from './page-meta.ts';
import { NAMESPACE_TITLES, sortSections } from './posts.ts';
import { latestUpdate, siteBase } from './sitemap.ts';
import type { SectionEntry, SiteSnapshot } from '../../common/snapshot-schema.ts';
import type { Namespace } from '../../common/snapshot-types.ts';
import { escapeXml } from '../../common/xml.ts';

export { latestUpdate };

/** A feed holds the newest posts only: readers poll it, and the site itself has the rest. */
export const FEED_MAX_ITEMS = 50;

export const NEWS_FEEDS = { rss: '/news/rss.xml', json: '/news/feed.json' } as const;

/** Software releases (issue 6, item 6): one item per release, newest first. */
export const RELEASES_FEED = '/downloads/rss.xml';

export interface FeedItem {
  id: string;
  title: string;
  url: string;
  html: string;
  summary: string;
  published: string;
  updated: string;
  author: string | undefined;
  category: string;
}

export interface Feed {
  title: string;
  description: string;
  /** The HTML page the feed follows. */
  pageUrl: string;
  /** The feed's own address. */
  feedUrl: string;
  items: FeedItem[];
}

export function sectionFeedPath(namespace: Namespace, section: Pick<SectionEntry, 'title_slug'>): string {
  return `/${namespace}/${section.title_slug}/rss.xml`;
}

/** Root-relative href/src/srcset/poster URLs of rendered HTML made absolute against the site. */
export function absolutizeHtml(html: string, siteUrl: string): string {
  const base = siteBase(siteUrl);
  return html
    .replace(/(\s(?:href|src|poster)=")\/(?!\/)/g, `$1${base}/`)
    .replace(/(\ssrcset=")([^"]*)"/g, (_match, start: string, list: string) => `${start}${list.replace(/(^|,\s*)\/(?!\/)/g, `$1${base}/`)}"`);
}

function itemsOf(snapshot: SiteSnapshot, namespace: Namespace, sections: readonly SectionEntry[], render: (markdown: string) => string): FeedItem[] {
  const base = siteBase(snapshot.site.url);
  const posts = sections.flatMap((section) => section.posts.map((post) => ({ post, section, createdAt: new Date(post.created_at).getTime() || 0 })));
  // Newest first; the id breaks ties so the order is stable from one build to the next. Chosen before
  // anything is rendered: the news feed picks 50 of every news post (1,667 at the bench's largest size).
  posts.sort((a, b) => b.createdAt - a.createdAt || b.post.id - a.post.id);
  return posts.slice(0, FEED_MAX_ITEMS).map(({ post, section }) => ({
    id: `${base}/${namespace}#post-${post.id}`,
    title: post.title,
    url: `${base}/${namespace}/${section.title_slug}#${post.title_slug}`,
    html: absolutizeHtml(render(post.body), base),
    summary: markdownExcerpt(post.body, 300),
    published: post.created_at,
    updated: post.updated_at,
    author: post.author?.name,
    category: section.title,
  }));
}

export function newsFeed(snapshot: SiteSnapshot, render: (markdown: string) => string): Feed {
  const base = siteBase(snapshot.site.url);
  return {
    title: `${snapshot.site.name} – ${NAMESPACE_TITLES.news}`,
    description: `${NAMESPACE_TITLES.news} from ${snapshot.site.name}.`,
    pageUrl: `${base}/news`,
    feedUrl: `${base}${NEWS_FEEDS.rss}`,
    items: itemsOf(snapshot, 'news', sortSections(snapshot.namespaces.news), render),
  };
}

export function sectionFeed(snapshot: SiteSnapshot, namespace: Namespace, section: SectionEntry, render: (markdown: string) => string): Feed {
  const base = siteBase(snapshot.site.url);
  return {
    title: `${snapshot.site.name} – ${NAMESPACE_TITLES[namespace]}: ${section.title}`,
    description: `${section.title}: ${NAMESPACE_TITLES[namespace].toLowerCase()} from ${snapshot.site.name}.`,
    pageUrl: `${base}/${namespace}/${section.title_slug}`,
    feedUrl: `${base}${sectionFeedPath(namespace, section)}`,
    items: itemsOf(snapshot, namespace, [section], render),
  };
}

export function releasesFeed(snapshot: SiteSnapshot, render: (markdown: string) => string): Feed {
  const base = siteBase(snapshot.site.url);
  const items = [...snapshot.downloads]
    .sort((a, b) => (Date.parse(b.created_at) || 0) - (Date.parse(a.created_at) || 0) || b.id - a.id)
    .slice(0, FEED_MAX_ITEMS)
    .map((release) => ({
      id: `${base}/downloads#release-${release.id}`,
      title: release.release && release.release !== '0' ? `${release.title} ${release.release}` : release.title,
      url: `${base}/downloads`,
      html: absolutizeHtml(render(release.body), base),
      summary: markdownExcerpt(release.body, 300),
      published: release.created_at,
      updated: release.updated_at,
      author: undefined,
      category: release.is_current ? 'Current release' : 'Release',
    }));
  return {
    title: `${snapshot.site.name} – Software releases`,
    description: `Software releases from ${snapshot.site.name}.`,
    pageUrl: `${base}/downloads`,
    feedUrl: `${base}${RELEASES_FEED}`,
    items,
  };
}

const rfc822 = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date.toUTCString();
};

export function renderRss(feed: Feed): string {
  const element = (name: string, value: string | undefined, attributes = '') =>
    value === undefined ? '' : `<${name}${attributes}>${escapeXml(value)}</${name}>`;
  const updated = latestUpdate(feed.items.map((item) => item.updated));
  const items = feed.items.map((item) =>
    [
      '    <item>',
      element('title', item.title),
      element('link', item.url),
      element('guid', item.id, ' isPermaLink="false"'),
      element('pubDate', rfc822(item.published)),
      element('dc:creator', item.author),
      element('category', item.category),
      element('description', item.summary),
      // Escaped rather than CDATA: a post containing "]]>" cannot break out of an escaped string.
      element('content:encoded', item.html),
      '</item>',
    ].join(''),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '  <channel>',
    `    ${element('title', feed.title)}${element('link', feed.pageUrl)}${element('description', feed.description)}<language>en</language>`,
    `    <atom:link href="${escapeXml(feed.feedUrl)}" rel="self" type="application/rss+xml"/>${element('lastBuildDate', updated && rfc822(updated))}`,
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}

export function renderJsonFeed(feed: Feed, feedUrl: string): string {
  return `${JSON.stringify(
    {
      version: 'https://jsonfeed.org/version/1.1',
      title: feed.title,
      home_page_url: feed.pageUrl,
      feed_url: feedUrl,
      description: feed.description,
      language: 'en',
      items: feed.items.map((item) => ({
        id: item.id,
        url: item.url,
        title: item.title,
        content_html: item.html,
        summary: item.summary,
        date_published: item.published,
        date_modified: item.updated,
        ...(item.author ? { authors: [{ name: item.author }] } : {}),
        tags: [item.category],
      })),
    },
    null,
    2,
  )}\n`;
}
