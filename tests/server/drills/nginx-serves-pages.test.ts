// NGINX_SERVES_PAGES=true on the real server process (issue 31, item 3; docs/decisions/0051): with a build
// on disk and a web worker, the primary writes the compressed forms nginx sends, /readyz says the build is
// live, and no serving process answers a page of the build itself (nginx does, from disk).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CURRENT_LINK } from '../../../server/publish/build-dirs.ts';
import { CODE_VERSION_FILE, codeVersion } from '../../../server/publish/code-version.ts';
import { rawRequest } from '../../helpers/raw-http.ts';
import { killAllServers, startServer } from '../../helpers/server-process.ts';
import { makeTempDir } from '../../helpers/test-context.ts';

const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../..');
const BUILD_ID = '20260101T000000000Z-000';
const PAGE = `<!DOCTYPE html><html><head><title>News</title></head><body><h1>Served by nginx</h1>${'<p>Probe calibration, step by step.</p>'.repeat(50)}</body></html>`;

let dataDir: string;
beforeEach(() => {
  dataDir = makeTempDir('nginx-pages-');
  fs.mkdirSync(path.join(dataDir, 'content'));
  const dir = path.join(dataDir, 'builds', BUILD_ID);
  fs.mkdirSync(path.join(dir, 'news'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), PAGE);
  fs.writeFileSync(path.join(dir, 'news', 'index.html'), PAGE);
  fs.writeFileSync(path.join(dir, CODE_VERSION_FILE), `${codeVersion(PROJECT_ROOT)}\n`);
  fs.symlinkSync(BUILD_ID, path.join(dataDir, 'builds', CURRENT_LINK));
});
afterEach(async () => {
  await killAllServers();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a server behind nginx (NGINX_SERVES_PAGES=true)', () => {
  it('writes the forms nginx sends, is ready, and answers no page of the build from memory in any process', async () => {
    const server = await startServer(dataDir, { NGINX_SERVES_PAGES: 'true', TRUST_PROXY: 'true', WEB_WORKERS: '1', SERVED_BY_HEADER: 'true' });
    const ready = await fetch(`${server.base}/readyz`);
    expect(ready.status).toBe(200);
    const forms = path.join(dataDir, 'builds', BUILD_ID, 'news', 'index.html');
    expect(zlib.brotliDecompressSync(fs.readFileSync(`${forms}.br`)).toString()).toBe(PAGE);
    expect(zlib.gunzipSync(fs.readFileSync(`${forms}.gz`)).toString()).toBe(PAGE);
    // A new connection each time, until both processes (the primary and the worker, one port; the worker
    // listens once it has taken the live build) have answered.
    const port = Number(new URL(server.base).port);
    const servedBy = new Set<string>();
    for (const deadline = Date.now() + 20_000; servedBy.size < 2 && Date.now() < deadline;) {
      const answer = await rawRequest(port, '/news/');
      expect(answer.text).not.toContain('Served by nginx');
      servedBy.add(String(answer.headers['x-served-by']));
    }
    expect([...servedBy].sort()).toEqual(['main', 'worker-1']);
  });
});
