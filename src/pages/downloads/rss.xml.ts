// /downloads/rss.xml: the software releases, newest first (src/lib/feeds.ts).
import type { APIRoute } from 'astro';
import { releasesFeed, renderRss } from '../../lib/feeds';
// The cached renderer: feeds show the same bodies as the pages, so they reuse their rendering.
import { renderMarkdownCached as renderMarkdown } from '../../../common/markdown/cache.ts';
import { getSnapshot } from '../../lib/site-data';

export const GET: APIRoute = () =>
  new Response(renderRss(releasesFeed(getSnapshot(), renderMarkdown)), { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
