// Contenders for the static-serving benchmark (run.sh): `node servers.ts <fast|hono|raw> <port> <site dir>`.
// fast = our createHttpServer fast path; hono = Hono answering the same bytes from memory (the 0.5x
// reference of docs/engineering.md#speed-notes); raw = the smallest possible node listener, the ceiling for a single Node process.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createHttpServer } from '../../server/server.ts';
import { loadStaticSite } from '../../server/static/static-site.ts';

const [kind = 'fast', portText = '8089', siteDir = '/tmp/bench-site'] = process.argv.slice(2);
const port = Number(portText);
const body = fs.readFileSync(path.join(siteDir, 'index.html'));
const headers = { 'Content-Type': 'text/html; charset=utf-8', ETag: '"bench"', 'Cache-Control': 'no-cache' };

if (kind === 'fast') {
  const site = await loadStaticSite(siteDir);
  createHttpServer({ app: new Hono(), getSite: () => site, mediaDir: path.join(siteDir, 'media') }).listen(port, '127.0.0.1');
} else if (kind === 'hono') {
  serve({ fetch: new Hono().get('/', (c) => c.body(body, 200, headers)).fetch, port, hostname: '127.0.0.1' });
} else {
  http.createServer((_req, res) => res.writeHead(200, { ...headers, 'Content-Length': body.length }).end(body)).listen(port, '127.0.0.1');
}
