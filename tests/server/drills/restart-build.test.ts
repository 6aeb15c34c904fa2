// A restart with a build on disk (issue 31, item 2): the real server process serves the build it finds from
// its first answer, without building; when the build records other code than the server's (a deploy), it
// is still served at once while a full build refreshes it in the background; when the last run ended before the
// build's search index was made, the index is made in the background (docs/decisions/0064-search-index-made-on-start.md).
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CODE_VERSION_FILE, codeVersion } from '../../../server/publish/code-version.ts';
import { CURRENT_LINK, hasOwnSearchIndex, recordSearchIndexed } from '../../../server/publish/build-dirs.ts';
import { killAllServers, loginAdmin, startServer } from '../../helpers/server-process.ts';
import { makeTempDir } from '../../helpers/test-context.ts';

const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../..');
const OLD_ID = '20260101T000000000Z-000';
const OLD_PAGE = '<!DOCTYPE html><html><head><title>Built before the restart</title></head><body><h1>Built before the restart</h1></body></html>';

let dataDir: string;
beforeEach(async () => {
  dataDir = makeTempDir('restart-build-');
  fs.mkdirSync(path.join(dataDir, 'content'));
  // A first run seeds the database (its first start would build anyway), then stops.
  const first = await startServer(dataDir);
  await first.kill();
});
afterEach(async () => {
  await killAllServers();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * A build as a previous run left it: builds/<id>/ with its pages and the code version it recorded, and (unless
 * that run ended first) the search index made from its pages.
 */
function leaveBuild(version: string, { indexed = true } = {}): void {
  const dir = path.join(dataDir, 'builds', OLD_ID);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), OLD_PAGE);
  fs.writeFileSync(path.join(dir, CODE_VERSION_FILE), `${version}\n`);
  if (indexed) recordSearchIndexed({ id: OLD_ID, dir });
  fs.symlinkSync(OLD_ID, path.join(dataDir, 'builds', CURRENT_LINK));
}

function buildIds(): string[] {
  return fs.readdirSync(path.join(dataDir, 'builds')).filter((name) => /^\d{8}T/.test(name));
}

async function homePage(base: string): Promise<string> {
  const response = await fetch(`${base}/`);
  expect(response.status).toBe(200);
  return response.text();
}

describe('a restart with a build on disk', () => {
  it('serves it from the first answer and builds nothing when the same code made it', async () => {
    leaveBuild(codeVersion(PROJECT_ROOT));
    const server = await startServer(dataDir, { BUILD_ON_START: 'true' });
    expect(await homePage(server.base)).toBe(OLD_PAGE);
    const admin = await loginAdmin(server.base);
    // Long enough for a publish to have made its build directory (it does so before anything else).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const status = (await (await admin.json('GET', '/api/admin/publish')).json()) as { state: string; pending: boolean; last_success: unknown };
    expect(status).toMatchObject({ state: 'idle', pending: false, last_success: null });
    expect(buildIds()).toEqual([OLD_ID]);
    expect(server.output()).not.toMatch(/made by other code/);
  });

  it('serves a build whose search index the last run did not make at once, and makes the index in the background', async () => {
    leaveBuild(codeVersion(PROJECT_ROOT), { indexed: false });
    const server = await startServer(dataDir, { BUILD_ON_START: 'true', LOG_LEVEL: 'info' });
    expect(await homePage(server.base)).toBe(OLD_PAGE);
    // The indexed copy goes live: the same pages with Pagefind's files beside them, nothing built.
    const liveDir = () => fs.realpathSync(path.join(dataDir, 'builds', CURRENT_LINK));
    await expect.poll(() => path.basename(liveDir()), { timeout: 20_000 }).not.toBe(OLD_ID);
    expect(hasOwnSearchIndex({ id: path.basename(liveDir()), dir: liveDir() })).toBe(true);
    expect((await fetch(`${server.base}/pagefind/pagefind.js`)).status).toBe(200);
    expect(await homePage(server.base)).toBe(OLD_PAGE);
    expect(server.output()).toMatch(/search index lags its pages/);
    expect(server.output()).not.toMatch(/building \(/);
  });

  it('serves a build of other code at once, and refreshes it with a full build in the background', async () => {
    leaveBuild('made-by-the-code-before-the-deploy');
    const server = await startServer(dataDir, { BUILD_ON_START: 'true', LOG_LEVEL: 'info' });
    expect(await homePage(server.base)).toBe(OLD_PAGE);
    const admin = await loginAdmin(server.base);
    const status = (await (await admin.json('GET', '/api/admin/publish')).json()) as { state: string };
    expect(status.state).toBe('building');
    await expect.poll(() => buildIds().length, { timeout: 10_000 }).toBeGreaterThan(1);
    expect(server.output()).toMatch(/made by other code: serving it while a full build refreshes it/);
    expect(server.output()).toMatch(/building \(the live build was made by other code\)/);
    // Readers keep the old build while the new one is made.
    expect(await homePage(server.base)).toBe(OLD_PAGE);
  });
});
