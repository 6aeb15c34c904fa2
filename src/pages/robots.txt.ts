// /robots.txt: points crawlers to the sitemap, keeps them out of the admin, dashboard and API.
import type { APIRoute } from 'astro';
import { renderRobots } from '../lib/sitemap';
import { getSnapshot } from '../lib/site-data';

export const GET: APIRoute = () => new Response(renderRobots(getSnapshot().site.url), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
