// Node's compile cache for the serving processes (server/index.ts, docs/decisions/0067-serving-compile-cache.md):
// the real product started as `npm start` starts it, with one more serving process, on a tiny hand-made build,
// and Node's own report of its compile cache (NODE_DEBUG_NATIVE=COMPILE_CACHE) read from the output: each
// process names the directory it caches in once, when its cache is turned on.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMPILE_CACHE_MAX_ENTRIES, trimCompileCache } from '../../../server/process/compile-cache.ts';
import { killAllServers, startServer, type ServerProcess } from '../../helpers/server-process.ts';
import { makeTempDir } from '../../helpers/test-context.ts';

const projectRoot = path.resolve(import.meta.dirname, '../../..');
const BUILD_ID = '20260101T000000000Z-000';
const temporary: string[] = [];

afterEach(async () => {
  await killAllServers();
  for (const dir of temporary.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = makeTempDir(prefix);
  temporary.push(dir);
  return dir;
}

/** The product with one more serving process (forked once a build is live: a tiny one is on disk). */
async function startWithWorker(compileCache: string): Promise<ServerProcess> {
  const dataDir = tempDir('site-compile-cache-');
  fs.mkdirSync(path.join(dataDir, 'content'));
  fs.mkdirSync(path.join(dataDir, 'builds', BUILD_ID), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'builds', BUILD_ID, 'index.html'), '<!DOCTYPE html><html><body><h1>Home</h1></body></html>');
  fs.symlinkSync(BUILD_ID, path.join(dataDir, 'builds', 'current'));
  // An empty NODE_COMPILE_CACHE is no directory: whatever the test runner's environment holds, the entry decides.
  const server = await startServer(dataDir, { WEB_WORKERS: '1', LOG_LEVEL: 'info', NODE_DEBUG_NATIVE: 'COMPILE_CACHE', NODE_COMPILE_CACHE: compileCache });
  await vi.waitFor(() => expect(server.output()).toMatch(/worker 1 \(pid \d+\) serving/), { timeout: 40_000, interval: 100 });
  return server;
}

/** The directories Node reported turning the compile cache on in, once per process (the two share one pipe, so not anchored to a line). */
function cacheDirectories(output: string): string[] {
  return [...output.matchAll(/\[compile cache\] resolved path (\S+) \+/g)].map((match) => match[1]!);
}

describe('the serving processes compile cache', () => {
  it('is on in the primary and in the process it forks, beside the installation by default', async () => {
    const server = await startWithWorker('');
    const beside = path.join(projectRoot, 'node_modules', '.cache', 'node-compile');
    expect(cacheDirectories(server.output())).toEqual([beside, beside]);
    // The server's own modules go through it, not only the entry.
    expect(server.output()).toMatch(/for ESM file:\/\/\S*\/server\/main\.ts/);
  });

  it('goes where NODE_COMPILE_CACHE says, and holds the compiled server there even after a kill -9', async () => {
    const directory = tempDir('site-compile-cache-dir-');
    const server = await startWithWorker(directory);
    expect(cacheDirectories(server.output())).toEqual([directory, directory]);
    // Node writes at a clean exit only; the entry writes once the server serves, so a killed one left it too.
    await server.kill();
    const versions = fs.readdirSync(directory);
    expect(versions).toHaveLength(1);
    expect(fs.readdirSync(path.join(directory, versions[0]!)).length).toBeGreaterThan(100);
  });
});

/** A cache folder as Node lays it out (a folder per Node version and flags), with `entries` empty entries. */
function fakeCache(entries: number): string {
  const directory = tempDir('site-compile-cache-fake-');
  const halves = [Math.ceil(entries / 2), Math.floor(entries / 2)];
  halves.forEach((count, index) => {
    const version = path.join(directory, `v24.0.0-x64-0000000${index}-0`);
    fs.mkdirSync(version);
    for (let entry = 0; entry < count; entry++) fs.writeFileSync(path.join(version, entry.toString(16).padStart(8, '0')), '');
  });
  return directory;
}

describe('the compile cache bound', () => {
  it('keeps a cache of up to COMPILE_CACHE_MAX_ENTRIES entries and clears a larger one whole', () => {
    const kept = fakeCache(10);
    expect(trimCompileCache(kept, 10)).toBe(false);
    expect(fs.readdirSync(kept)).toHaveLength(2);
    const cleared = fakeCache(11);
    expect(trimCompileCache(cleared, 10)).toBe(true);
    expect(fs.existsSync(cleared)).toBe(false);
    // No cache yet: nothing to do.
    expect(trimCompileCache(path.join(cleared, 'missing'))).toBe(false);
  });

  it('is applied by the entry before the cache is used: a start over the bound begins with an empty cache', async () => {
    const directory = fakeCache(COMPILE_CACHE_MAX_ENTRIES + 1);
    const server = await startWithWorker(directory);
    expect(cacheDirectories(server.output())).toEqual([directory, directory]);
    // The fake entries are gone; what is there now is this start's own.
    expect(fs.readdirSync(directory).filter((version) => version.startsWith('v24.0.0-'))).toEqual([]);
  });
});
