// The client address rate limits use, with web workers in the path: a worker names it in a header the main
// process believes only on its unix socket (only our workers can reach that); on the public port the same
// header is anyone's invention and counts for nothing.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_IP_HEADER, clientIp } from '../../../server/http/client-ip.ts';
import { createForwarder, type Forwarder } from '../../../server/http/forward.ts';
import { createWorkerFacingServer } from '../../../server/server.ts';
import { listen } from '../../helpers/raw-http.ts';
import { makeTempDir } from '../../helpers/test-context.ts';

const app = new Hono()
  .get('/ip', (c) => c.text(clientIp(c, { trustProxy: false })))
  .get('/ip-behind-proxy', (c) => c.text(clientIp(c, { trustProxy: true })));
const listener = getRequestListener(app.fetch);

let dir: string;
let socketPath: string;
let publicPort: Awaited<ReturnType<typeof listen>>;
let workerPort: Awaited<ReturnType<typeof listen>>;
let internal: http.Server;
let forwarder: Forwarder;

function get(target: { port: number } | { socketPath: string }, pathname: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const options = 'port' in target ? { host: '127.0.0.1', port: target.port } : { socketPath: target.socketPath };
    const req = http.request({ ...options, path: pathname, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = makeTempDir('site-client-ip-');
  socketPath = path.join(dir, 'app.sock');
  publicPort = await listen(http.createServer(listener));
  internal = createWorkerFacingServer(listener);
  await new Promise<void>((resolve) => internal.listen(socketPath, resolve));
  forwarder = createForwarder({ socketPath });
  workerPort = await listen(http.createServer(forwarder.listener));
});

afterAll(async () => {
  forwarder.close();
  await publicPort.close();
  await workerPort.close();
  internal.closeAllConnections();
  await new Promise<void>((resolve) => internal.close(() => resolve()));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('clientIp with web workers', () => {
  it('ignores the header on the public port', async () => {
    expect(await get(publicPort, '/ip', { [CLIENT_IP_HEADER]: '203.0.113.9' })).toBe('127.0.0.1');
  });

  it('believes it on the unix socket, where only workers connect', async () => {
    expect(await get({ socketPath }, '/ip', { [CLIENT_IP_HEADER]: '203.0.113.9' })).toBe('203.0.113.9');
    expect(await get({ socketPath }, '/ip')).toBe('unknown');
  });

  it('gets the real address through a worker, which drops the copy a client forged', async () => {
    expect(await get(workerPort, '/ip')).toBe('127.0.0.1');
    expect(await get(workerPort, '/ip', { 'X-Site-Client-IP': '203.0.113.9' })).toBe('127.0.0.1');
  });

  it('still takes a trusted reverse proxy’s X-Forwarded-For first, through a worker too', async () => {
    expect(await get(workerPort, '/ip-behind-proxy', { 'X-Forwarded-For': '192.0.2.1, 198.51.100.4' })).toBe('198.51.100.4');
    expect(await get(workerPort, '/ip-behind-proxy')).toBe('127.0.0.1');
  });
});
