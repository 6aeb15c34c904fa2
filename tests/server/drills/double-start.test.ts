// A server removes the `.part` files a crash left behind when it starts, only once it holds the data
// directory's lock (server/main.ts, server/process/instance-lock.ts). This drill starts a second server by
// mistake on the same data and port while the first one is receiving an upload: the second refuses to
// start, naming the running one, and the upload in flight finishes intact.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killAllServers, launchServer, loginAdmin, startServer } from '../../helpers/server-process.ts';
import { openStreamedUpload } from '../../helpers/streamed-upload.ts';

const temps: string[] = [];
afterEach(async () => {
  await killAllServers();
});
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a second server started on the same data and port', () => {
  it('refuses to start without touching the uploads the running one receives', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'double-start-drill-'));
    temps.push(dataDir);
    fs.mkdirSync(path.join(dataDir, 'content'));
    const server = await startServer(dataDir);
    const admin = await loginAdmin(server.base);
    const tmpDir = path.join(dataDir, 'private', '.tmp');

    const FILE_BYTES = 8 * 1024 * 1024;
    const { request, head, tail, answer, write } = openStreamedUpload({
      url: new URL('/api/downloads/store', server.base),
      headers: admin.headers(),
      fields: { title: 'In flight', downloadable: '1' },
      file: { name: 'flight.zip', type: 'application/zip', size: FILE_BYTES },
    });
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
    expect(second.output()).toContain(`Another server is already running on DATA_DIR ${dataDir} (pid ${server.child.pid})`);
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
