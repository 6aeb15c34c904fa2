// The bench reads the static ratio to nginx beside a bare Node server that sends the product's very bytes
// (bench/run.ts, startBareNodeServer; bench/static-serving/servers.ts, `raw`). Here that server answers
// with the headers it is given and the page's bytes, from every one of its processes, and goes away whole.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNodeProcess, type ProductProcess } from '../../bench/lib/product.ts';
import { freePort } from '../helpers/fetch-client.ts';
import { isProcessRunning } from '../helpers/process-running.ts';
import { rawRequest } from '../helpers/raw-http.ts';

const PAGE = '<!DOCTYPE html><title>News</title><p>Forty posts of measurement news.</p>';
const HEADERS = ['Content-Type', 'text/html; charset=utf-8', 'Content-Length', String(Buffer.byteLength(PAGE)), 'ETag', '"abc"', 'X-Frame-Options', 'DENY'];
let siteDir: string;
let server: ProductProcess;
let port: number;

beforeAll(async () => {
  siteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bare-static-'));
  fs.mkdirSync(path.join(siteDir, 'news'));
  fs.writeFileSync(path.join(siteDir, 'news', 'index.html'), PAGE);
  port = await freePort();
  server = await startNodeProcess('bench/static-serving/servers.ts', {
    args: ['raw', String(port), siteDir, '/news/', '3'],
    env: { RAW_HEADERS: JSON.stringify(HEADERS) },
    port,
    timeoutMs: 30_000,
    ready: async (base) => (await fetch(`${base}/news/`)).status === 200,
  });
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(siteDir, { recursive: true, force: true });
});

it('answers with the given headers and the page, from every process, and stops with all of them', async () => {
  // The two others beside the first, each listening before the first did (servers.ts waits for them).
  const others = fs.readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, 'utf8').trim().split(' ');
  expect(others).toHaveLength(2);
  // A new connection each: the kernel spreads them over the processes listening on the port.
  const answers = await Promise.all(Array.from({ length: 12 }, () => rawRequest(port, '/news/')));
  for (const answer of answers) {
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(PAGE);
    expect(answer.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', etag: '"abc"', 'x-frame-options': 'DENY' });
  }
  await server.stop();
  // Every process is gone, not only the first. (Not judged by a refused connection: once freed, the port may
  // already be another test file's, as they run side by side and take free ports too.)
  for (const pid of [server.pid, ...others.map(Number)]) expect(isProcessRunning(pid), `process ${pid}`).toBe(false);
});
