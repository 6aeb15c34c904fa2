// One view of the metrics of every serving process (docs/decisions/0031-observability.md): the real product
// with WEB_WORKERS=1, requests answered by each process, and a scrape reaching either process reporting
// the sum of both, plus /healthz and /readyz answered by each.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectTo, type PinnedConnection } from '../../helpers/pinned-connection.ts';
import { parsePrometheus, sample } from '../../helpers/prometheus.ts';
import { killAllServers, startServer, type ServerProcess } from '../../helpers/server-process.ts';
import { makeTempDir } from '../../helpers/test-context.ts';

let dataDir: string;
let server: ServerProcess;
let port: number;
let main: PinnedConnection;
let worker: PinnedConnection;

beforeAll(async () => {
  dataDir = makeTempDir('site-metrics-processes-');
  fs.mkdirSync(path.join(dataDir, 'content'));
  server = await startServer(dataDir, { WEB_WORKERS: '1', SERVED_BY_HEADER: 'true' });
  port = Number(new URL(server.base).port);
  main = await connectTo(port, 'main', '/healthz');
  // The other process listens a moment after the primary answers.
  worker = await vi.waitFor(() => connectTo(port, 'worker-1', '/healthz'), { timeout: 30_000, interval: 200 });
}, 60_000);

afterAll(async () => {
  main?.close();
  worker?.close();
  await killAllServers();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('two serving processes', () => {
  it('answer /healthz each, and /readyz names the missing build in each', async () => {
    for (const connection of [main, worker]) {
      expect((await connection.request('GET', '/healthz')).status).toBe(200);
      const ready = await connection.request('GET', '/readyz');
      expect(ready.status).toBe(503);
      expect(JSON.parse(ready.text)).toMatchObject({ status: 'not ready', failed: ['build'] });
    }
  });

  it('report the requests of both, joined, whichever process the scrape reaches', async () => {
    const count = async (connection: PinnedConnection) => {
      const answer = await connection.request('GET', '/metrics');
      expect(answer.status).toBe(200);
      return sample(parsePrometheus(answer.text), 'http_requests_total', { method: 'GET', route: '/api/user', status: '401' });
    };
    const before = await count(main);
    expect(await count(worker)).toBe(before);
    for (let i = 0; i < 3; i++) expect((await main.api('GET', '/api/user')).status).toBe(401);
    for (let i = 0; i < 4; i++) expect((await worker.api('GET', '/api/user')).status).toBe(401);
    expect(await count(main)).toBe(before + 7);
    expect(await count(worker)).toBe(before + 7);
    // Both processes' default metrics joined too: CPU time adds up, the Node version is one value.
    const text = (await worker.request('GET', '/metrics')).text;
    expect(sample(parsePrometheus(text), 'nodejs_version_info')).toBe(1);
  });
});
