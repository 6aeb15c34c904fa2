// /downloads/rss.xml: the software releases, newest first (src/lib/feeds.ts).
import type { APIRoute } from 'astro';
import { releasesFeed, renderRss } from '../../lib/feeds';
import { renderMarkdown } from '../../lib/markdown';
import { getSnapshot } from '../../lib/site-data';

export const GET: APIRoute = () => new Response(renderRss(releasesFeed(getSnapshot(), renderMarkdown)), { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
