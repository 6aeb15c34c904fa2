// What the server creates in a fresh DATA_DIR is for its own user (issue 17, item 9;
// server/storage/data-dir.ts): the real product started on a DATA_DIR that does not exist yet, with a
// permissive umask, then a release uploaded and a mail written to the outbox; every private folder is
// 0700 and every private file 0600, and DATA_DIR may only be passed through (0711), so a web server of
// another user can still reach the public builds/ (docs/decisions/0027-transport-limits.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killAllServers, loginAdmin, startServer, type HttpClient, type ServerProcess } from '../../helpers/server-process.ts';
import { solvedBotToken } from '../../helpers/fetch-client.ts';

let parent: string;
let dataDir: string;
let server: ServerProcess;
let admin: HttpClient;
const previousUmask = process.umask(0o022);

beforeAll(async () => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'data-dir-modes-'));
  dataDir = path.join(parent, 'data');
  fs.mkdirSync(path.join(parent, 'content'));
  // The child inherits this process's umask: 022, the usual one, which leaves new files world-readable.
  server = await startServer(dataDir, { CONTENT_DIR: path.join(parent, 'content') });
  admin = await loginAdmin(server.base);
}, 30_000);

afterAll(async () => {
  await killAllServers();
  process.umask(previousUmask);
  fs.rmSync(parent, { recursive: true, force: true });
});

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((entry) => (entry.isFile() ? [path.join(entry.parentPath, entry.name)] : []));
}

function dirsUnder(dir: string): string[] {
  return [
    dir,
    ...fs.readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? [path.join(entry.parentPath, entry.name)] : [])),
  ];
}

async function uploadRelease(): Promise<void> {
  const form = new FormData();
  form.set('title', 'Private release');
  form.set('downloadable', '1');
  form.set('file', new Blob(['installer bytes']), 'setup.bin');
  const response = await fetch(`${server.base}/api/downloads/store`, { method: 'POST', headers: admin.headers(), body: form });
  expect(response.status, await response.clone().text()).toBe(201);
}

async function requestPasswordReset(): Promise<void> {
  const response = await admin.json('POST', '/api/auth/reset-password', { email: 'drill-admin@example.com', g_token: await solvedBotToken(server.base) });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
}

describe('a DATA_DIR the server creates', () => {
  it('keeps the database, gated files, outbox, secrets and run lock to the server’s user', async () => {
    await uploadRelease();
    await requestPasswordReset();
    const deadline = Date.now() + 5_000;
    // The outbox writes a temporary file and renames it: wait for the message itself, not for any file.
    while (!filesUnder(path.join(dataDir, 'outbox')).some((file) => file.endsWith('.eml')) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));

    expect(modeOf(dataDir).toString(8)).toBe('711');
    for (const name of ['site.db', 'site.db-wal', 'site.db-shm']) expect(modeOf(path.join(dataDir, name)).toString(8), name).toBe('600');

    const privateTrees = ['private', 'outbox', 'secrets', 'run'].map((name) => path.join(dataDir, name));
    const privateFiles = privateTrees.flatMap(filesUnder);
    // Each kind is there: a release, a mail, a signing key, the lock.
    expect(privateFiles.some((file) => file.includes(`${path.sep}private${path.sep}`))).toBe(true);
    expect(privateFiles.some((file) => file.endsWith('.eml'))).toBe(true);
    expect(privateFiles.some((file) => file.endsWith('.pem'))).toBe(true);
    expect(privateFiles.some((file) => file.endsWith('server.lock'))).toBe(true);
    for (const file of privateFiles) expect(modeOf(file).toString(8), file).toBe('600');
    for (const dir of privateTrees.flatMap(dirsUnder)) expect(modeOf(dir).toString(8), dir).toBe('700');
  });
});
