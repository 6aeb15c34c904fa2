// Contenders for the static-serving benchmark (run.sh, and bench/run.ts's static comparison):
// `node servers.ts <fast|hono|raw> <port> <site dir> [page] [processes]`.
// fast = our createHttpServer fast path; hono = Hono answering the same bytes from memory (the 0.5x
// reference of docs/engineering.md#speed-notes); raw = the smallest possible node listener, the ceiling for a
// Node server: it answers every request with the page's bytes (`page`, a path under the site, default
// /index.html), in `processes` processes on one port (SO_REUSEPORT, bench/lib/reference-processes.ts), as the
// product's serving processes share theirs. With RAW_HEADERS (a JSON list of name, value, name, value…) it sends those headers, so it
// sends the product's very bytes; without, three.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createHttpServer } from '../../server/server.ts';
import { loadStaticSite } from '../../server/static/static-site.ts';
import { listenInProcesses } from '../lib/reference-processes.ts';

const [kind = 'fast', portText = '8089', siteDir = '/tmp/bench-site', page = '/', processesText = '1'] = process.argv.slice(2);
const port = Number(portText);
const body = fs.readFileSync(path.join(siteDir, page.endsWith('/') ? `${page}index.html` : page));
const headers = { 'Content-Type': 'text/html; charset=utf-8', ETag: '"bench"', 'Cache-Control': 'no-cache' };

if (kind === 'fast') {
  const site = await loadStaticSite(siteDir);
  createHttpServer({ app: new Hono(), getSite: () => site, mediaDir: path.join(siteDir, 'media') }).listen(port, '127.0.0.1');
} else if (kind === 'hono') {
  serve({ fetch: new Hono().get('*', (c) => c.body(body, 200, headers)).fetch, port, hostname: '127.0.0.1' });
} else {
  await serveRaw(Number(processesText));
}

async function serveRaw(processes: number): Promise<void> {
  if (!Number.isInteger(processes) || processes < 1) throw new Error(`processes must be a whole number from 1, not ${processesText}`);
  const given = process.env.RAW_HEADERS ? (JSON.parse(process.env.RAW_HEADERS) as string[]) : null;
  const list = given ?? [...Object.entries(headers).flat(), 'Content-Length', String(body.length)];
  const server = http.createServer((_req, res) => res.writeHead(200, list).end(body));
  await listenInProcesses(
    processes,
    () => new Promise<void>((resolve) => server.listen({ port, host: '127.0.0.1', reusePort: true, exclusive: true }, resolve)),
  );
}
