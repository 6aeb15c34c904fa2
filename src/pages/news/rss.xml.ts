// /news/rss.xml: every news section's posts, newest first (src/lib/feeds.ts).
import type { APIRoute } from 'astro';
import { newsFeed, renderRss } from '../../lib/feeds';
import { renderMarkdown } from '../../lib/markdown';
import { getSnapshot } from '../../lib/site-data';

export const GET: APIRoute = () => new Response(renderRss(newsFeed(getSnapshot(), renderMarkdown)), { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
