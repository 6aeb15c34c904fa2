// Contenders for the static-serving benchmark (run.sh): `node servers.ts <fast|hono|raw> <port> <site dir> [page]`.
// fast = our createHttpServer fast path; hono = Hono answering the same bytes from memory (the 0.5x
// reference of docs/engineering.md#speed-notes); raw = the smallest possible node listener, the ceiling for a
// Node process: it answers every request with the page's bytes (`page`, a path under the site, default
// /index.html), and binds with SO_REUSEPORT so that run.sh can start two of them on one port, as the product's
// primary and web worker do.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createHttpServer } from '../../server/server.ts';
import { loadStaticSite } from '../../server/static/static-site.ts';

const [kind = 'fast', portText = '8089', siteDir = '/tmp/bench-site', page = '/'] = process.argv.slice(2);
const port = Number(portText);
const body = fs.readFileSync(path.join(siteDir, page.endsWith('/') ? `${page}index.html` : page));
const headers = { 'Content-Type': 'text/html; charset=utf-8', ETag: '"bench"', 'Cache-Control': 'no-cache' };

if (kind === 'fast') {
  const site = await loadStaticSite(siteDir);
  createHttpServer({ app: new Hono(), getSite: () => site, mediaDir: path.join(siteDir, 'media') }).listen(port, '127.0.0.1');
} else if (kind === 'hono') {
  serve({ fetch: new Hono().get('*', (c) => c.body(body, 200, headers)).fetch, port, hostname: '127.0.0.1' });
} else {
  http
    .createServer((_req, res) => res.writeHead(200, { ...headers, 'Content-Length': body.length }).end(body))
    .listen({ port, host: '127.0.0.1', reusePort: true });
}
