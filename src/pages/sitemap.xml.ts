// /sitemap.xml, rebuilt with every publish from the snapshot (src/lib/sitemap.ts).
import type { APIRoute } from 'astro';
import { renderSitemap, sitemapUrls } from '../lib/sitemap';
import { getSnapshot } from '../lib/site-data';

export const GET: APIRoute = () => new Response(renderSitemap(sitemapUrls(getSnapshot())), { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
