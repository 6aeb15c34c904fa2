// The publish queue with a fake runner whose builds finish on command: coalescing, the atomic switch,
// pruning, and failures that leave the live site alone.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { updateHomeSection } from '../../../server/features/home/queries.ts';
import { CURRENT_LINK, FAILURE_LOG, PREVIOUS_LINK } from '../../../server/publish/build-dirs.ts';
import { createPublisher, findCurrentBuild } from '../../../server/publish/publisher.ts';
import type { Publisher } from '../../../server/publish/types.ts';
import { createHttpServer } from '../../../server/server.ts';
import { CARRY_MS, loadStaticSite, type StaticSite } from '../../../server/static/static-site.ts';
import { SNAPSHOT_FILE } from '../../../common/snapshot-types.ts';
import { FIXTURE, insertContentFixture } from '../../helpers/content-fixture.ts';
import { createControlledRunner, type ControlledRunner } from '../../helpers/controlled-runner.ts';
import { listen, rawRequest } from '../../helpers/raw-http.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

let ctx: TestContext;
let runner: ControlledRunner;
let publisher: Publisher;
let site: StaticSite | null;
let liveCalls: string[];
let fixture: ReturnType<typeof insertContentFixture>;

beforeEach(() => {
  ctx = createTestContext();
  fixture = insertContentFixture(ctx.db);
  runner = createControlledRunner();
  site = null;
  liveCalls = [];
  publisher = createPublisher({
    config: ctx.config,
    db: ctx.db,
    log: ctx.log,
    runBuild: runner.runBuild,
    onLive: async (dir, id) => {
      liveCalls.push(id);
      site = await loadStaticSite(dir, { previous: site });
    },
  });
});
afterEach(async () => {
  await publisher.whenIdle();
  ctx.cleanup();
});

function renameHome(title: string) {
  updateHomeSection(ctx.db, fixture.home.id, { title, body: '', order: 1 });
}

function buildDirs(): string[] {
  return fs.readdirSync(ctx.config.buildsDir).filter((name) => /^\d{8}T/.test(name));
}

describe('publisher', () => {
  it('builds from a fresh snapshot, then switches builds/current and the served site to it', async () => {
    expect(publisher.status()).toEqual({ state: 'idle', pending: false, currentBuildId: null, lastSuccess: null, lastFailure: null });
    publisher.schedule('test');
    const build = await runner.started(1);
    expect(publisher.status().state).toBe('building');
    expect(build.snapshot.home[0]?.title).toBe(FIXTURE.homeTitle);
    expect(path.dirname(build.job.outDir)).toBe(ctx.config.buildsDir);
    expect(fs.readdirSync(build.job.outDir)).toEqual([]);
    build.succeed();
    await publisher.whenIdle();

    const status = publisher.status();
    expect(status).toMatchObject({ state: 'idle', pending: false, currentBuildId: build.job.id, lastFailure: null });
    expect(status.lastSuccess).toEqual({ at: expect.any(String), durationMs: expect.any(Number), buildId: build.job.id });
    expect(liveCalls).toEqual([build.job.id]);
    expect(fs.readlinkSync(path.join(ctx.config.buildsDir, CURRENT_LINK))).toBe(build.job.id);
    expect(findCurrentBuild(ctx.config)).toEqual({ id: build.job.id, dir: build.job.outDir });
    expect(site?.lookup('/')?.identity.body.toString()).toContain(FIXTURE.homeTitle);
    // The per-build snapshot is gone; content/ mirrors what is live (for `astro dev`).
    expect(fs.existsSync(build.job.contentDir)).toBe(false);
    expect(fs.readFileSync(path.join(ctx.config.contentDir, SNAPSHOT_FILE), 'utf8')).toContain(FIXTURE.homeTitle);
  });

  it('gives exactly one more build for any number of changes during a build', async () => {
    publisher.schedule('first change');
    const first = await runner.started(1);
    renameHome('Second title');
    publisher.schedule('second change');
    renameHome('Third title');
    publisher.schedule('third change');
    expect(publisher.status()).toMatchObject({ state: 'building', pending: true });
    expect(runner.builds).toHaveLength(1);

    first.succeed();
    const second = await runner.started(2);
    expect(publisher.status()).toMatchObject({ state: 'building', pending: false });
    // The follow-up build sees every change that arrived while the first one ran.
    expect(second.snapshot.home.map((section) => section.title)).toContain('Third title');
    second.succeed();
    await publisher.whenIdle();

    expect(runner.builds).toHaveLength(2);
    expect(second.job.id > first.job.id).toBe(true);
    expect(publisher.status()).toMatchObject({ state: 'idle', pending: false, currentBuildId: second.job.id });
    expect(liveCalls).toEqual([first.job.id, second.job.id]);
  });

  it('gets the runner ready for the next publish once its queue is empty, never between queued builds or after a stop', async () => {
    publisher.schedule('first change');
    const first = await runner.started(1);
    publisher.schedule('second change');
    first.succeed();
    const second = await runner.started(2);
    expect(runner.prepared).toEqual([]);
    second.succeed();
    await publisher.whenIdle();
    expect(runner.prepared).toEqual([{ buildsStarted: 2, config: ctx.config }]);

    // A stopping server builds nothing more: nothing to get ready for.
    publisher.schedule('third change');
    const third = await runner.started(3);
    (publisher as ReturnType<typeof createPublisher>).stop();
    third.succeed();
    await publisher.whenIdle();
    expect(runner.prepared).toHaveLength(1);
  });

  it('starts a new build for a change that arrives after the queue went idle', async () => {
    publisher.schedule('one');
    (await runner.started(1)).succeed();
    await publisher.whenIdle();
    publisher.schedule('two');
    (await runner.started(2)).succeed();
    await publisher.whenIdle();
    expect(runner.builds).toHaveLength(2);
  });

  it('keeps the old site served when a build fails, reports failed with the log tail, removes the partial dir', async () => {
    publisher.schedule('good');
    const good = await runner.started(1);
    good.succeed();
    await publisher.whenIdle();
    const server = await listen(createHttpServer({ app: ctx.app, getSite: () => site, mediaDir: ctx.config.uploadsDir }));
    try {
      renameHome('This title never goes live');
      publisher.schedule('bad');
      const bad = await runner.started(2);
      const log = [...Array.from({ length: 300 }, (_, i) => `line ${i}`), 'error: [vite] Could not resolve "./Missing.astro"'].join('\n');
      bad.fail(log);
      await publisher.whenIdle();

      const status = publisher.status();
      expect(status.state).toBe('failed');
      expect(status.currentBuildId).toBe(good.job.id);
      expect(status.lastSuccess?.buildId).toBe(good.job.id);
      expect(status.lastFailure?.log).toContain('Could not resolve "./Missing.astro"');
      expect(status.lastFailure?.log).not.toContain('line 0\n');
      expect(fs.existsSync(bad.job.outDir)).toBe(false);
      expect(fs.readFileSync(path.join(ctx.config.buildsDir, FAILURE_LOG), 'utf8')).toBe(log);
      expect(liveCalls).toEqual([good.job.id]);
      expect(findCurrentBuild(ctx.config)?.id).toBe(good.job.id);
      const page = await rawRequest(server.port, '/');
      expect(page.status).toBe(200);
      expect(page.text).toContain(FIXTURE.homeTitle);
      expect(page.text).not.toContain('This title never goes live');

      // The next good build clears the failed state but keeps the last failure for the admin to read.
      publisher.schedule('fixed');
      (await runner.started(3)).succeed();
      await publisher.whenIdle();
      expect(publisher.status().state).toBe('idle');
      expect(publisher.status().lastFailure).not.toBeNull();
      expect((await rawRequest(server.port, '/')).text).toContain('This title never goes live');
    } finally {
      await server.close();
    }
  });

  it('treats a crashed runner, a failed build and a build that cannot go live as failures, never throwing', async () => {
    publisher.schedule('crash');
    (await runner.started(1)).crash(new Error('runner exploded'));
    await publisher.whenIdle();
    expect(publisher.status()).toMatchObject({ state: 'failed', currentBuildId: null });
    expect(publisher.status().lastFailure?.log).toContain('runner exploded');

    publisher.schedule('empty');
    (await runner.started(2)).fail('');
    await publisher.whenIdle();
    expect(publisher.status().state).toBe('failed');

    const failingLive = createPublisher({
      config: ctx.config,
      db: ctx.db,
      log: ctx.log,
      runBuild: runner.runBuild,
      onLive: () => {
        throw new Error('could not load the build');
      },
    });
    expect(() => failingLive.schedule('live fails')).not.toThrow();
    const third = await runner.started(3);
    third.succeed();
    await failingLive.whenIdle();
    expect(failingLive.status()).toMatchObject({ state: 'failed', currentBuildId: null });
    expect(failingLive.status().lastFailure?.log).toContain('could not load the build');
    expect(fs.existsSync(third.job.outDir)).toBe(false);
    expect(findCurrentBuild(ctx.config)).toBeNull();
    expect(buildDirs()).toEqual([]);
  });

  it('fails the publish before any build when the export does not match the snapshot schema, naming the field', async () => {
    publisher.schedule('good');
    const good = await runner.started(1);
    good.succeed();
    await publisher.whenIdle();
    ctx.db.$client.prepare('UPDATE posts SET created_at = ? WHERE id = ?').run('not a date', fixture.posts.first.id);
    publisher.schedule('bad export');
    await publisher.whenIdle();
    expect(runner.builds).toHaveLength(1);
    expect(publisher.status()).toMatchObject({ state: 'failed', currentBuildId: good.job.id });
    expect(publisher.status().lastFailure?.log).toMatch(/the exported snapshot is not a valid site snapshot[^]*namespaces\.news\[0\]\.posts\[0\]\.created_at/);
    expect(findCurrentBuild(ctx.config)?.id).toBe(good.job.id);
  });

  it('fails a build that reports success without a home page', async () => {
    const noIndex = createPublisher({ config: ctx.config, db: ctx.db, log: ctx.log, runBuild: async () => ({ ok: true, log: 'ok' }), onLive: () => {} });
    noIndex.schedule('nothing built');
    await noIndex.whenIdle();
    expect(noIndex.status().state).toBe('failed');
    expect(noIndex.status().lastFailure?.log).toContain('no index.html');
  });

  it('keeps only the current and the previous build', async () => {
    const ids: string[] = [];
    for (let n = 1; n <= 4; n += 1) {
      publisher.schedule(`change ${n}`);
      const build = await runner.started(n);
      build.succeed();
      await publisher.whenIdle();
      ids.push(build.job.id);
    }
    expect(buildDirs().sort()).toEqual(ids.slice(-2));
    expect(fs.existsSync(path.join(ctx.config.buildsDir, '.work'))).toBe(false);
  });

  it('names the replaced build builds/previous for nginx, for CARRY_MS after each switch, and a restart forgets a leftover as long after', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const previousLink = path.join(ctx.config.buildsDir, PREVIOUS_LINK);
      const ids: string[] = [];
      for (let n = 1; n <= 3; n += 1) {
        publisher.schedule(`change ${n}`);
        const build = await runner.started(n);
        build.succeed();
        await publisher.whenIdle();
        ids.push(build.job.id);
        // The first build replaced nothing; every later one names the build it replaced.
        if (n === 1) expect(fs.existsSync(previousLink)).toBe(false);
        else expect(fs.readlinkSync(previousLink)).toBe(ids[n - 2]);
        // The timer of the first replaced build must not remove the link a later switch made.
        vi.advanceTimersByTime(CARRY_MS / 2);
      }
      expect(fs.readlinkSync(previousLink)).toBe(ids[1]);
      vi.advanceTimersByTime(CARRY_MS / 2);
      expect(fs.existsSync(previousLink)).toBe(false);
      expect(fs.readlinkSync(path.join(ctx.config.buildsDir, CURRENT_LINK))).toBe(ids[2]);

      // A restart finds a link its process did not make: it goes CARRY_MS later as well.
      fs.symlinkSync(ids[1]!, previousLink);
      createPublisher({ config: ctx.config, db: ctx.db, log: ctx.log, runBuild: runner.runBuild, onLive: () => {} });
      vi.advanceTimersByTime(CARRY_MS - 1);
      expect(fs.readlinkSync(previousLink)).toBe(ids[1]);
      vi.advanceTimersByTime(1);
      expect(fs.existsSync(previousLink)).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('knows the live build after a restart', async () => {
    publisher.schedule('first');
    const build = await runner.started(1);
    build.succeed();
    await publisher.whenIdle();
    const restarted = createPublisher({ config: ctx.config, db: ctx.db, log: ctx.log, runBuild: runner.runBuild, onLive: () => {} });
    expect(restarted.status().currentBuildId).toBe(build.job.id);
  });
});

describe('publisher bursts', () => {
  it('builds once for several changes made in the same turn', async () => {
    const runner = createControlledRunner();
    const burst = createPublisher({ config: ctx.config, db: ctx.db, log: ctx.log, runBuild: runner.runBuild, onLive: () => {} });
    burst.schedule('image 1 deleted');
    burst.schedule('image 2 deleted');
    burst.schedule('image 3 deleted');
    (await runner.started(1)).succeed();
    await burst.whenIdle();
    expect(runner.builds).toHaveLength(1);
  });
});
