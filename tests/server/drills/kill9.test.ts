// Fault drills (issue 8 item 3) against the real product process (`node server/index.ts`): kill -9 during
// a burst of writes and during a large streamed upload, restart on the same DATA_DIR, and check that every
// acknowledged write survived, no row points to a missing file, no partial upload became a release, and
// SQLite's integrity check passes. The kill is triggered by progress (N acknowledged writes, bytes that
// reached the server's temp file), never by a sleep.
//
// The server is started in its own process group and the whole group is SIGKILLed: a crash of the service
// (or systemd killing its cgroup) also takes the Astro build children the publisher spawns after writes, and
// nothing is left running after the test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killAllServers, loginAdmin, startServer } from '../../helpers/server-process.ts';
import { openStreamedUpload } from '../../helpers/streamed-upload.ts';

const temps: string[] = [];

afterEach(async () => {
  await killAllServers();
});

afterAll(async () => {
  await killAllServers();
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

function makeDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kill9-drill-'));
  temps.push(dir);
  fs.mkdirSync(path.join(dir, 'content'));
  return dir;
}

function integrityCheck(dataDir: string): string {
  const db = new Database(path.join(dataDir, 'site.db'), { readonly: true, fileMustExist: true });
  try {
    return (db.pragma('integrity_check', { simple: true }) as string) ?? '';
  } finally {
    db.close();
  }
}

describe('kill -9 drills against the real server process', () => {
  it('keeps every acknowledged write of a burst interrupted by SIGKILL', async () => {
    const dataDir = makeDataDir();
    let server = await startServer(dataDir);
    const admin = await loginAdmin(server.base);

    const TOTAL = 200;
    const CONCURRENCY = 8;
    const KILL_AFTER_ACKS = 60;
    const acknowledged = new Map<string, number>();
    let next = 0;
    let killing: Promise<void> | null = null;
    let failures = 0;

    const worker = async () => {
      while (next < TOTAL) {
        const index = next++;
        const title = `drill section ${index}`;
        try {
          const response = await admin.json('POST', '/api/home/store', { title, body: `body of ${index}`, order: index });
          if (response.status === 201) {
            const answer = (await response.json()) as { section: { id: number } };
            acknowledged.set(title, answer.section.id);
          } else if (!killing) {
            throw new Error(`POST /api/home/store answered ${response.status}: ${await response.text()}`);
          }
        } catch (error) {
          if (!killing) throw error;
          failures++;
        }
        if (acknowledged.size >= KILL_AFTER_ACKS && !killing) killing = server.kill();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await killing;

    // The kill really landed mid-burst: some writes were answered, later ones were not.
    expect(killing).not.toBeNull();
    expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    expect(acknowledged.size).toBeLessThan(TOTAL);
    expect(failures).toBeGreaterThan(0);

    // The database is sound straight after the crash (before any recovery by the restarted server)...
    expect(integrityCheck(dataDir)).toBe('ok');

    server = await startServer(dataDir);
    const response = await fetch(`${server.base}/api/home/getSections`, { headers: { Accept: 'application/json' } });
    expect(response.status).toBe(200);
    const { sections } = (await response.json()) as { sections: Array<{ id: number; title: string }> };
    const present = new Map(sections.map((section) => [section.title, section.id]));
    const missing = [...acknowledged].filter(([title, id]) => present.get(title) !== id);
    expect(missing).toEqual([]);
    // ...and while the restarted server runs (WAL lets a reader in).
    expect(integrityCheck(dataDir)).toBe('ok');
    await server.kill();
    expect(integrityCheck(dataDir)).toBe('ok');
  });

  it('leaves no row, file or release behind for an upload interrupted by SIGKILL', async () => {
    const dataDir = makeDataDir();
    let server = await startServer(dataDir);
    const admin = await loginAdmin(server.base);
    const tmpDir = path.join(dataDir, 'private', '.tmp');
    const downloadsDir = path.join(dataDir, 'private', 'downloads');

    // A finished release first, so the check "every row's file exists" has a row to look at.
    const small = new FormData();
    small.append('title', 'Finished release');
    small.append('body', 'done');
    small.append('release', '1.0.0');
    small.append('is_current', '1');
    small.append('downloadable', '1');
    small.append('file', new Blob([Buffer.alloc(64 * 1024, 7)]), 'finished.zip');
    const stored = await fetch(`${server.base}/api/downloads/store`, { method: 'POST', headers: admin.headers(), body: small });
    expect(stored.status).toBe(201);

    const FILE_BYTES = 160 * 1024 * 1024;
    const KILL_WHEN_SENT = 30 * 1024 * 1024;
    const KILL_WHEN_RECEIVED = 16 * 1024 * 1024;
    const KILLED_RELEASE = '9.9.9-killed';
    const { request, head, answer, write } = openStreamedUpload({
      url: new URL('/api/downloads/store', server.base),
      headers: admin.headers(),
      fields: { title: 'Killed upload', body: 'never finished', release: KILLED_RELEASE, is_current: '0', downloadable: '1' },
      file: { name: 'killed.zip', type: 'application/zip', size: FILE_BYTES },
    });
    let answered: number | undefined;
    request.on('response', (response) => (answered = response.statusCode));
    // The kill cuts the connection before any answer: that rejection is the expected outcome here.
    answer.catch(() => undefined);
    const closed = new Promise<void>((resolve) => {
      request.on('error', () => resolve());
      request.on('close', () => resolve());
    });

    const partBytes = () => {
      let largest = 0;
      for (const name of fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir) : []) {
        if (name.endsWith('.part')) largest = Math.max(largest, fs.statSync(path.join(tmpDir, name)).size);
      }
      return largest;
    };

    const chunk = Buffer.alloc(256 * 1024, 0x5a);
    let sent = 0;
    let killed = false;
    let receivedAtKill = 0;
    try {
      await write(head);
      while (sent < FILE_BYTES) {
        const piece = chunk.subarray(0, Math.min(chunk.length, FILE_BYTES - sent));
        await write(piece);
        sent += piece.length;
        if (sent >= KILL_WHEN_SENT) {
          receivedAtKill = partBytes();
          if (receivedAtKill >= KILL_WHEN_RECEIVED) {
            killed = true;
            await server.kill();
            break;
          }
        }
      }
    } catch (error) {
      if (!killed) throw error;
    }
    request.destroy();
    await closed;

    expect(killed).toBe(true);
    expect(answered).toBeUndefined();
    expect(receivedAtKill).toBeGreaterThanOrEqual(KILL_WHEN_RECEIVED);
    expect(sent).toBeLessThan(FILE_BYTES);

    const checkFiles = () => {
      const db = new Database(path.join(dataDir, 'site.db'), { readonly: true, fileMustExist: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        // A release's files are rows of release_files (issue 25); a release without one has a null name.
        const rows = db
          .prepare(
            'SELECT d.id, d.release, f.stored_name, coalesce(f.size, 0) AS size FROM download_items d LEFT JOIN release_files f ON f.download_item_id = d.id',
          )
          .all() as Array<{
          id: number;
          release: string;
          stored_name: string | null;
          size: number;
        }>;
        // No release for the killed upload.
        expect(rows.filter((row) => row.release === KILLED_RELEASE)).toEqual([]);
        expect(rows.map((row) => row.release)).toEqual(['1.0.0']);
        // No row points to a missing (or differently sized) file.
        for (const row of rows.filter((r) => r.stored_name !== null)) {
          const file = path.join(downloadsDir, row.stored_name!);
          expect(fs.existsSync(file), `file of download ${row.id}`).toBe(true);
          expect(fs.statSync(file).size).toBe(row.size);
        }
        // The partial file never left the temp directory, so nothing can serve it.
        const names = new Set(rows.map((row) => row.stored_name));
        for (const name of fs.readdirSync(downloadsDir)) expect(names.has(name), `stray file ${name} in downloads`).toBe(true);
      } finally {
        db.close();
      }
    };
    checkFiles();
    // The kill left the cut upload's `.part` (only in the temp dir)...
    const partFiles = () => fs.readdirSync(tmpDir).filter((name) => name.endsWith('.part'));
    expect(partFiles()).toHaveLength(1);

    // ...and the restarted server removes it before it listens, not a day later.
    server = await startServer(dataDir);
    expect(partFiles()).toEqual([]);
    const list = await fetch(`${server.base}/api/downloads/getSections`, { headers: admin.headers() });
    expect(list.status).toBe(200);
    const { sections } = (await list.json()) as { sections: Array<{ release: string }> };
    expect(sections.map((section) => section.release)).toEqual(['1.0.0']);
    checkFiles();
    await server.kill();
    checkFiles();
  });
});
