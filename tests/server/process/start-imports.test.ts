// A serving process starts without the libraries only some requests need (server/lazy-libraries.ts,
// docs/decisions/0076-libraries-loaded-on-first-use.md): they cost every process its start time and memory.
// A top-level import of one of them anywhere the server loads at start would bring it back; this test fails then.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { connectTo } from '../../helpers/pinned-connection.ts';
import { killAllServers, startServer } from '../../helpers/server-process.ts';

const HOOK = path.resolve(import.meta.dirname, '../../helpers/loaded-packages-hook.ts');
/** What server/lazy-libraries.ts loads on first use, and the markdown pipeline by some of its packages. */
const LOADED_ON_FIRST_USE = [
  'sharp',
  '@simplewebauthn/server',
  'qrcode',
  'nodemailer',
  'yaml',
  '@aws-sdk/client-s3',
  '@zxcvbn-ts/language-common',
  'unified',
  'remark-parse',
  'micromark',
  'katex',
];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'start-imports-'));
const loadedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'start-imports-loaded-'));

afterAll(async () => {
  await killAllServers();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(loadedDir, { recursive: true, force: true });
});

describe('a serving process at start', () => {
  it('answers without having loaded the libraries that are loaded on first use', async () => {
    fs.mkdirSync(path.join(dataDir, 'content'));
    const server = await startServer(dataDir, {
      NODE_OPTIONS: `--import=${HOOK}`,
      LOADED_PACKAGES_DIR: loadedDir,
      WEB_WORKERS: '1',
      SERVED_BY_HEADER: 'true',
    });
    // Both serving processes answer: each has loaded everything it loads before it listens.
    const port = Number(new URL(server.base).port);
    for (const name of ['main', 'worker-1']) (await vi.waitFor(() => connectTo(port, name, '/healthz'), { timeout: 20_000, interval: 200 })).close();
    const files = fs.readdirSync(loadedDir).map((name) => path.join(loadedDir, name));
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const file of files) {
      const loaded = fs.readFileSync(file, 'utf8').split('\n');
      // The hook saw the process load what every request needs.
      expect(loaded).toEqual(expect.arrayContaining(['hono', 'better-sqlite3', 'drizzle-orm', 'zod']));
      expect(loaded.filter((name) => LOADED_ON_FIRST_USE.includes(name))).toEqual([]);
    }
  });
});
