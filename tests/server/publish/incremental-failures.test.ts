// The incremental publish's failure paths (issue 31; docs/decisions/0044-incremental-publish.md): a render that
// throws half way, a disk that fills half way, and readers hammering the site through both doors (the Node
// server's memory, and the files under builds/current as nginx reads them) during a run of publishes. The
// live site stays whole in each: every answer is a whole page of one generation, and none goes back in time.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CURRENT_LINK } from '../../../server/publish/build-dirs.ts';
import { createPublisher, findCurrentBuild } from '../../../server/publish/publisher.ts';
import { createHttpServer } from '../../../server/server.ts';
import { loadStaticSite, type StaticSite } from '../../../server/static/static-site.ts';
import { createGenerationRunner, generationOf, PAGE_BYTES, PAGES, readGenerations, type GenerationRunner } from '../../helpers/generation-runner.ts';
import { listen, rawRequest } from '../../helpers/raw-http.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

let ctx: TestContext;
let gen: GenerationRunner;
let site: StaticSite | null;

beforeEach(() => {
  ctx = createTestContext();
  gen = createGenerationRunner();
  site = null;
});
afterEach(() => ctx.cleanup());

function startPublisher() {
  const publisher = createPublisher({
    config: ctx.config,
    db: ctx.db,
    log: ctx.log,
    runBuild: gen.runner,
    onLive: async (dir) => {
      site = await loadStaticSite(dir, { previous: site });
    },
  });
  const publish = async () => {
    publisher.schedule('test');
    await publisher.whenIdle();
    return publisher.status();
  };
  return { publisher, publish };
}

/** The live build's files, byte for byte, to compare after a publish that must not have touched them. */
function snapshotFiles(dir: string): Record<string, string> {
  return Object.fromEntries(PAGES.map((page) => [page, fs.readFileSync(path.join(dir, page), 'utf8')]));
}

function liveDir(): string {
  const current = findCurrentBuild(ctx.config);
  if (!current) throw new Error('no live build');
  return current.dir;
}

function buildDirs(): string[] {
  return fs.readdirSync(ctx.config.buildsDir).filter((name) => /^\d{8}T/.test(name));
}

describe('an incremental render that throws', () => {
  it('half way through: the same publish builds in full, and the live build is never written into', async () => {
    const { publish } = startPublisher();
    await publish();
    const before = snapshotFiles(liveDir());
    let liveDuringRender: Record<string, string> | null = null;
    gen.midRender = () => {
      liveDuringRender = snapshotFiles(liveDir());
      throw new Error('TypeError: a page component threw');
    };
    const status = await publish();
    // The live build was whole while the half-rendered copy existed beside it.
    expect(liveDuringRender).toEqual(before);
    expect(gen.calls).toMatchObject({ render: 1, full: 2 });
    expect(status.state).toBe('idle');
    // The new live build is the full build's, whole: not the half render's mix of generations.
    expect(readGenerations(liveDir())).toEqual({ 'index.html': 2, 'a.html': 2, 'b.html': 2, 'c.html': 2 });
    expect(ctx.logLines.some((line) => line.includes('a page component threw'))).toBe(true);
  });

  it('and a full build that fails too: the old site stays live and whole, and nothing half made is left', async () => {
    const { publish } = startPublisher();
    const first = await publish();
    const before = snapshotFiles(liveDir());
    // The live build and the one before it (the first build goes live before its search index, then its
    // indexed copy replaces it: docs/decisions/0058-first-build-search-after-live.md).
    const buildsBefore = buildDirs();
    expect(buildsBefore).toContain(first.currentBuildId);
    gen.midRender = () => {
      throw new Error('a page threw');
    };
    gen.beforeFullPage = (_dir, page) => {
      if (page === 'b.html') throw new Error('the build broke half way');
    };
    const status = await publish();
    expect(status.state).toBe('failed');
    expect(status.currentBuildId).toBe(first.currentBuildId);
    expect(snapshotFiles(liveDir())).toEqual(before);
    expect(fs.readlinkSync(path.join(ctx.config.buildsDir, CURRENT_LINK))).toBe(first.currentBuildId);
    // Nothing the failed publish made is left: the builds are those it found.
    expect(buildDirs()).toEqual(buildsBefore);
    expect(site?.lookup('/a.html')?.identity.body.toString()).toBe(before['a.html']);
  });
});

// A real full disk: builds/ is a small tmpfs (mounting needs root, as CI runs; elsewhere the drill is skipped
// with the reason printed, like tests/server/drills/full-disk.test.ts).
const mountRefusal = (() => {
  if (process.platform !== 'linux') return `it mounts a tmpfs, which needs Linux (this is ${process.platform})`;
  try {
    execFileSync('mount', ['--help'], { stdio: 'pipe' });
    return process.getuid?.() === 0 ? null : 'mounting a tmpfs needs root; run the tests as root, as CI does, to drill a full disk';
  } catch (error) {
    return `mount is not available (${(error as Error).message})`;
  }
})();
if (mountRefusal) console.warn(`incremental full-disk drill skipped: ${mountRefusal}`);

describe.skipIf(mountRefusal !== null)('a disk that fills half way through an incremental publish', () => {
  it('fails the publish with ENOSPC, keeps the live build whole and served, and publishes once space is back', async () => {
    const buildsDir = ctx.config.buildsDir;
    fs.mkdirSync(buildsDir, { recursive: true });
    // Room for two builds of 4 × 256 KiB (the live one and a full build beside it) and a little more.
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', buildsDir], { stdio: 'pipe' });
    try {
      const { publish } = startPublisher();
      const first = await publish();
      const before = snapshotFiles(liveDir());
      const buildsBefore = buildDirs();
      expect(buildsBefore).toContain(first.currentBuildId);
      // Fill what is left but for 300 KiB: the render's first page fits, its second does not.
      const stats = fs.statfsSync(buildsDir);
      const free = stats.bavail * stats.bsize;
      const fillerFile = path.join(buildsDir, '.filler');
      fs.writeFileSync(fillerFile, Buffer.alloc(Math.max(0, free - 300 * 1024)));

      const status = await publish();
      // The render ran out half way, and the full build it fell back to too.
      expect(gen.calls).toMatchObject({ render: 1, full: 2 });
      expect(status.state).toBe('failed');
      expect(status.lastFailure?.log).toMatch(/ENOSPC/);
      expect(status.currentBuildId).toBe(first.currentBuildId);
      expect(snapshotFiles(liveDir())).toEqual(before);
      expect(site?.lookup('/b.html')?.identity.body.toString()).toBe(before['b.html']);
      // The half-written copy is gone: it would otherwise hold the disk.
      expect(buildDirs()).toEqual(buildsBefore);

      fs.rmSync(fillerFile);
      const after = await publish();
      expect(after.state).toBe('idle');
      expect(after.currentBuildId).not.toBe(first.currentBuildId);
    } finally {
      try {
        execFileSync('umount', [buildsDir], { stdio: 'pipe' });
      } catch {
        execFileSync('umount', ['-l', buildsDir], { stdio: 'pipe' });
      }
    }
  });
});

describe('the atomic switch under concurrent readers', () => {
  it('never answers a 404, a torn page or an older generation than one already seen, through memory or from disk', async () => {
    const { publisher, publish } = startPublisher();
    await publish();
    const server = await listen(createHttpServer({ app: ctx.app, getSite: () => site, mediaDir: ctx.config.uploadsDir }));
    const current = path.join(ctx.config.buildsDir, CURRENT_LINK);
    // Renders slow enough that the readers make many requests across the eight switches (a switch itself now
    // reads only the changed files: docs/decisions/0062-switch-loads-what-changed.md).
    gen.renderPauseMs = 20;
    let publishing = true;
    const problems: string[] = [];
    let reads = 0;
    // Each reader remembers the newest generation it saw of each page: a switch may only move it forward.
    const reader = async (read: (page: string) => Promise<{ ok: boolean; body: string; what: string }>) => {
      const seen = new Map<string, number>();
      while (publishing) {
        for (const page of PAGES) {
          const answer = await read(page);
          reads++;
          const generation = answer.ok ? generationOf(page, answer.body) : null;
          if (generation === null) problems.push(`${page}: ${answer.what}`);
          else if (generation < (seen.get(page) ?? 0)) problems.push(`${page}: generation ${generation} after ${seen.get(page)}`);
          else seen.set(page, generation);
        }
      }
    };
    const overHttp = async (page: string) => {
      const answer = await rawRequest(server.port, `/${page}`);
      return { ok: answer.status === 200, body: answer.text, what: `HTTP ${answer.status}, ${answer.body.length} bytes` };
    };
    const readers = [reader(overHttp), reader(overHttp)];
    // As nginx does: open the path through the `current` link at each request, from threads of their own,
    // so the reads really run while the publisher switches (an event-loop reader would wait for it).
    const diskReaders = [0, 1].map(() => readFromDisk(current));
    try {
      for (let round = 0; round < 8; round++) {
        publisher.schedule(`edit ${round}`);
        await publisher.whenIdle();
      }
    } finally {
      publishing = false;
      await Promise.all(readers);
      await server.close();
    }
    const fromDisk = await Promise.all(diskReaders.map((diskReader) => diskReader.stop()));
    expect(problems).toEqual([]);
    expect(fromDisk.flatMap((result) => result.problems)).toEqual([]);
    expect(Math.min(...fromDisk.map((result) => result.reads))).toBeGreaterThan(100);
    expect(gen.calls.render).toBe(8);
    expect(reads).toBeGreaterThan(100);
    // The readers saw the last generation in the end: the switches happened while they read.
    expect(readGenerations(liveDir())['a.html']).toBe(9);
  });
});

/**
 * A reader on a thread of its own, reading every page through `current` in a loop with blocking reads until
 * stopped: what it saw that was not a whole page of a generation at least as new as the last one it saw.
 */
function readFromDisk(current: string): { stop: () => Promise<{ reads: number; problems: string[] }> } {
  const stopFlag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `
    const fs = require('node:fs');
    const path = require('node:path');
    const { parentPort, workerData } = require('node:worker_threads');
    const { current, pages, pageBytes, stopFlag } = workerData;
    const seen = new Map();
    const problems = [];
    let reads = 0;
    while (Atomics.load(stopFlag, 0) === 0) {
      for (const page of pages) {
        let body;
        try {
          body = fs.readFileSync(path.join(current, page), 'utf8');
        } catch (error) {
          problems.push(page + ': ' + error.code);
          continue;
        }
        reads++;
        const match = /<!-- generation:(\\d+) -->/.exec(body);
        const generation = match && body.length === pageBytes && body.endsWith('x') ? Number(match[1]) : null;
        if (generation === null) problems.push(page + ': a torn page of ' + body.length + ' bytes');
        else if (generation < (seen.get(page) ?? 0)) problems.push(page + ': generation ' + generation + ' after ' + seen.get(page));
        else seen.set(page, generation);
      }
    }
    parentPort.postMessage({ reads, problems: problems.slice(0, 20) });
    `,
    { eval: true, workerData: { current, pages: PAGES, pageBytes: PAGE_BYTES, stopFlag } },
  );
  const result = new Promise<{ reads: number; problems: string[] }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    stop: async () => {
      Atomics.store(stopFlag, 0, 1);
      const answer = await result;
      await worker.terminate();
      return answer;
    },
  };
}
