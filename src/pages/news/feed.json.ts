// /news/feed.json: the news feed as JSON Feed 1.1, for readers that prefer it to RSS.
import type { APIRoute } from 'astro';
import { NEWS_FEEDS, newsFeed, renderJsonFeed } from '../../lib/feeds';
// The cached renderer: feeds show the same bodies as the pages, so they reuse their rendering.
import { renderMarkdownCached as renderMarkdown } from '../../../common/markdown/cache.ts';
import { siteBase } from '../../lib/sitemap';
import { getSnapshot } from '../../lib/site-data';

export const GET: APIRoute = () => {
  const snapshot = getSnapshot();
  const body = renderJsonFeed(newsFeed(snapshot, renderMarkdown), `${siteBase(snapshot.site.url)}${NEWS_FEEDS.json}`);
  return new Response(body, { headers: { 'Content-Type': 'application/feed+json; charset=utf-8' } });
};
