// A server removes the `.part` files a crash left behind when it starts, only once it holds the port
// (server/index.ts). This drill starts a second server by mistake on the same data and port while the first
// one is receiving an upload: the second stops at EADDRINUSE, and the upload in flight finishes intact.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killAllServers, launchServer, loginAdmin, startServer } from '../../helpers/server-process.ts';

const temps: string[] = [];
afterEach(async () => {
  await killAllServers();
});
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a second server started on the same data and port', () => {
  it('stops at EADDRINUSE without touching the uploads the running one receives', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'double-start-drill-'));
    temps.push(dataDir);
    fs.mkdirSync(path.join(dataDir, 'content'));
    const server = await startServer(dataDir);
    const admin = await loginAdmin(server.base);
    const tmpDir = path.join(dataDir, 'private', '.tmp');

    const FILE_BYTES = 8 * 1024 * 1024;
    const boundary = `----double-start-${Date.now().toString(16)}`;
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nIn flight\r\n--${boundary}\r\nContent-Disposition: form-data; name="downloadable"\r\n\r\n1\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="flight.zip"\r\nContent-Type: application/zip\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    const url = new URL('/api/downloads/store', server.base);
    const request = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      agent: false,
      headers: { ...admin.headers(), 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(Buffer.byteLength(head) + FILE_BYTES + Buffer.byteLength(tail)) },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      request.on('response', (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (text: string) => (body += text));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on('error', reject);
    });
    const write = (data: Buffer | string) => new Promise<void>((resolve, reject) => request.write(data, (error) => (error ? reject(error) : resolve())));
    const parts = () => (fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir).filter((name) => name.endsWith('.part')) : []);
    const partBytes = () => parts().reduce((largest, name) => Math.max(largest, fs.statSync(path.join(tmpDir, name)).size), 0);

    // Half the file sent, and part of it on the server's disk.
    const chunk = Buffer.alloc(256 * 1024, 0x33);
    let sent = 0;
    await write(head);
    while ((sent < FILE_BYTES / 2 || partBytes() < 1024 * 1024) && sent < FILE_BYTES - chunk.length) {
      await write(chunk);
      sent += chunk.length;
    }
    const inFlight = parts();
    expect(inFlight).toHaveLength(1);

    const second = launchServer(dataDir, Number(new URL(server.base).port));
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain('EADDRINUSE');
    expect(parts()).toEqual(inFlight);

    while (sent < FILE_BYTES) {
      await write(chunk);
      sent += chunk.length;
    }
    request.end(tail);
    const { status, body } = await answer;
    expect(status).toBe(201);
    expect((JSON.parse(body) as { release: { size: number } }).release.size).toBe(FILE_BYTES);
    expect(parts()).toEqual([]);
    expect(server.alive()).toBe(true);
  });
});
