// Astro build processes (server/publish/warm-astro.ts, docs/decisions/0036-one-build-per-process.md): each
// build runs in a process of its own, which ends with it; the process for the next build is made ready ahead
// and warms up on the warm-up site; each build sees its own snapshot; a failed build reports its error in the
// log and the next one builds again.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildChildEnv, createAstroBuildRunner } from '../../../server/publish/build-runner.ts';
import { createWarmAstro } from '../../../server/publish/warm-astro.ts';
import { exportSnapshot, writeSnapshot } from '../../../server/publish/export-snapshot.ts';
import { insertPost } from '../../../server/features/content/queries.ts';
import { insertSection } from '../../../server/features/content/queries.ts';
import { isProcessRunning } from '../../helpers/process-running.ts';
import { createTestContext } from '../../helpers/test-context.ts';

const BUILD_TIMEOUT = 120_000;
const ctx = createTestContext();
afterAll(() => ctx.cleanup());

// One build per process as 0036 has it: this runner keeps no build for incremental publishes (0044).
const runner = createAstroBuildRunner({ pagefind: false, incremental: false });
let serial = 0;

async function buildWith(snapshotText: string | null) {
  serial += 1;
  const id = `warm-${serial}`;
  const contentDir = path.join(ctx.config.dataDir, 'content-jobs', id);
  const outDir = path.join(ctx.config.dataDir, 'out', id);
  fs.mkdirSync(outDir, { recursive: true });
  if (snapshotText === null) writeSnapshot(contentDir, exportSnapshot(ctx.db, ctx.config, new Date()));
  else {
    fs.mkdirSync(contentDir, { recursive: true });
    fs.writeFileSync(path.join(contentDir, 'site.json'), snapshotText);
  }
  const result = await runner({ id, outDir, contentDir, config: ctx.config });
  return { ...result, outDir };
}

/** The build process named in the log's first line, and whether it was made ready ahead. */
const buildProcessOf = (log: string) => {
  const match = /\(build process (\d+), (made ready ahead|started for this build)\)/.exec(log);
  return { pid: Number(match?.[1]), readyAhead: match?.[2] === 'made ready ahead' };
};

describe('the build environment', () => {
  it('asks mimalloc (Rolldown, the Astro compiler) not to commit whole arenas up front, and passes no secrets', () => {
    const before = process.env.SMTP_URL;
    process.env.SMTP_URL = 'smtp://user:secret@mail.example.com';
    try {
      const env = buildChildEnv({ config: ctx.config });
      expect(env.MIMALLOC_ARENA_EAGER_COMMIT).toBe('0');
      expect(env.PATH).toBe(process.env.PATH);
      expect(Object.keys(env)).not.toContain('SMTP_URL');
    } finally {
      if (before === undefined) delete process.env.SMTP_URL;
      else process.env.SMTP_URL = before;
    }
  });

  it("shares the serving processes' compile cache (server/index.ts names it), else keeps one in DATA_DIR", () => {
    // docs/decisions/0067-serving-compile-cache.md: one cache for the installation's compiled modules, so even
    // the first build of a new data directory loads Astro and the markdown pipeline compiled.
    const before = process.env.NODE_COMPILE_CACHE;
    try {
      process.env.NODE_COMPILE_CACHE = '/opt/site/node_modules/.cache/node-compile';
      expect(buildChildEnv({ config: ctx.config }).NODE_COMPILE_CACHE).toBe('/opt/site/node_modules/.cache/node-compile');
      delete process.env.NODE_COMPILE_CACHE;
      expect(buildChildEnv({ config: ctx.config }).NODE_COMPILE_CACHE).toBe(path.join(ctx.config.dataDir, 'cache', 'node-compile'));
    } finally {
      if (before === undefined) delete process.env.NODE_COMPILE_CACHE;
      else process.env.NODE_COMPILE_CACHE = before;
    }
  });
});

describe('Astro builds, one per process', () => {
  it(
    'each build runs in its own process, the next one made ready and warmed up ahead; a failure is logged and the next build works',
    async () => {
      const section = insertSection(ctx.db, 'news', { title: 'Warm news', order: 1 });
      const post = insertPost(ctx.db, 'news', {
        section_id: section.id,
        title: 'First warm title',
        body: 'One.',
        published: true,
        display_order: 1,
        user_id: null,
      });
      const page = (outDir: string) => fs.readFileSync(path.join(outDir, 'news', section.title_slug, 'index.html'), 'utf8');

      const first = await buildWith(null);
      expect(first.ok, first.log).toBe(true);
      expect(page(first.outDir)).toContain('First warm title');
      const firstProcess = buildProcessOf(first.log);
      expect(firstProcess.readyAhead).toBe(false);
      // The process ends with its build: what Rolldown keeps of a build must not weigh on the next.
      await expect.poll(() => isProcessRunning(firstProcess.pid)).toBe(false);
      // The build process's peak memory, for the metric site_publish_build_peak_rss_bytes: Astro alone is well over 50 MB.
      expect(first.peakRssBytes).toBeGreaterThan(50 * 1024 * 1024);
      // It runs under the lean heap limits (docs/decisions/0034-lean-publishing.md): a 768 MB old space plus
      // the young generation, below V8's default on this machine (a quarter of its memory, at least 2 GB).
      expect(first.heapLimitBytes).toBeGreaterThan(768 * 1024 * 1024);
      expect(first.heapLimitBytes).toBeLessThan(850 * 1024 * 1024);

      // The warm-up site builds (were it broken, every build would silently run cold).
      expect(await runner.prepare?.(ctx.config)).toBe(true);
      ctx.db.$client.prepare('update posts set title = ? where id = ?').run('Second warm title', post.id);
      const second = await buildWith(null);
      expect(second.ok, second.log).toBe(true);
      const secondProcess = buildProcessOf(second.log);
      expect(secondProcess.readyAhead).toBe(true);
      expect(secondProcess.pid).not.toBe(firstProcess.pid);
      expect(page(second.outDir)).toContain('Second warm title');
      expect(page(second.outDir)).not.toContain('First warm title');

      // A build sent the moment its process is being made ready (an admin saving twice in a row) still builds,
      // and goes first: the process skips the warm-up it was sent while Astro loaded (astro-build-process.ts).
      const warming = runner.prepare?.(ctx.config);
      const broken = await buildWith('{ this is not JSON');
      expect(await warming).toBe(false);
      expect(broken.ok).toBe(false);
      expect(broken.log).toContain('is not valid JSON');
      expect(buildProcessOf(broken.log).readyAhead).toBe(true);

      const after = await buildWith(null);
      expect(after.ok, after.log).toBe(true);
      expect(buildProcessOf(after.log).readyAhead).toBe(false);
      expect(page(after.outDir)).toContain('Second warm title');
    },
    BUILD_TIMEOUT * 2,
  );

  it(
    'a build that outruns its time is stopped: its process ends, and the log says why',
    async () => {
      const warm = createWarmAstro();
      const contentDir = path.join(ctx.config.dataDir, 'content-jobs', 'too-slow');
      writeSnapshot(contentDir, exportSnapshot(ctx.db, ctx.config, new Date()));
      const outDir = path.join(ctx.config.dataDir, 'out', 'too-slow');
      fs.mkdirSync(outDir, { recursive: true });
      const workDir = path.join(ctx.config.projectRoot, 'node_modules', '.cache', 'site-publish', `too-slow-${process.pid}`);
      fs.mkdirSync(workDir, { recursive: true });
      try {
        // A build takes seconds; 300 ms is over before Astro has even loaded.
        const result = await warm.build(
          { id: 'too-slow', root: ctx.config.projectRoot, outDir, workDir, contentDir },
          { env: buildChildEnv({ config: ctx.config }), timeoutMs: 300 },
        );
        expect(result.ok).toBe(false);
        expect(result.log).toMatch(/\n\[publish\] build exceeded 300 ms and was stopped\n$/);
        await expect.poll(() => isProcessRunning(buildProcessOf(result.log).pid)).toBe(false);
      } finally {
        warm.close();
        fs.rmSync(workDir, { recursive: true, force: true });
      }
    },
    BUILD_TIMEOUT,
  );
});

describe('the renderer of incremental publishes', () => {
  it(
    'is a fresh process of its own (docs/decisions/0056-fresh-renderer.md): the kept build’s process ends with its build, and the renderer renders an edit with its bundle',
    async () => {
      const keeping = createAstroBuildRunner({ pagefind: false });
      const section = insertSection(ctx.db, 'news', { title: 'Rendered news', order: 2 });
      const post = insertPost(ctx.db, 'news', {
        section_id: section.id,
        title: 'Before the edit',
        body: 'One.',
        published: true,
        display_order: 1,
        user_id: null,
      });
      const snapshotAt = (id: string) => {
        const dir = path.join(ctx.config.dataDir, 'content-jobs', id);
        writeSnapshot(dir, exportSnapshot(ctx.db, ctx.config, new Date()));
        return dir;
      };
      const outDir = path.join(ctx.config.dataDir, 'out', 'kept');
      fs.mkdirSync(outDir, { recursive: true });
      const built = await keeping({ id: 'kept', outDir, contentDir: snapshotAt('kept'), config: ctx.config });
      expect(built.ok, built.log).toBe(true);
      const builder = buildProcessOf(built.log).pid;
      // The build process does not stay as the renderer: its Vite and Rolldown memory goes with it.
      await expect.poll(() => isProcessRunning(builder)).toBe(false);
      expect(keeping.canRender?.(ctx.config)).toBe(true);

      ctx.db.$client.prepare('update posts set title = ? where id = ?').run('After the edit', post.id);
      const nextDir = path.join(ctx.config.dataDir, 'out', 'kept-next');
      fs.cpSync(outDir, nextDir, { recursive: true });
      const pagePath = `/news/${section.title_slug}`;
      const rendered = await keeping.render?.({ id: 'kept-next', outDir: nextDir, contentDir: snapshotAt('kept-next'), paths: [pagePath], config: ctx.config });
      expect(rendered?.ok, rendered?.log).toBe(true);
      const renderer = Number(/\(renderer (\d+)\)/.exec(rendered?.log ?? '')?.[1]);
      expect(renderer).not.toBe(builder);
      expect(isProcessRunning(renderer)).toBe(true);
      expect(rendered?.written).toContain(path.join('news', section.title_slug, 'index.html'));
      expect(fs.readFileSync(path.join(nextDir, 'news', section.title_slug, 'index.html'), 'utf8')).toContain('After the edit');
      // The render's own peak, for the metric site_publish_build_peak_rss_bytes (the bench holds its size).
      expect(rendered?.peakRssBytes).toBeGreaterThan(0);
    },
    BUILD_TIMEOUT,
  );

  it(
    'that cannot load what the build left ends, and says so: the render fails and nothing is kept to render with (the publish then builds in full)',
    async () => {
      const keeping = createAstroBuildRunner({ pagefind: false });
      const outDir = path.join(ctx.config.dataDir, 'out', 'unloadable');
      fs.mkdirSync(outDir, { recursive: true });
      const contentDir = path.join(ctx.config.dataDir, 'content-jobs', 'unloadable');
      writeSnapshot(contentDir, exportSnapshot(ctx.db, ctx.config, new Date()));
      const built = await keeping({ id: 'unloadable', outDir, contentDir, config: ctx.config });
      expect(built.ok, built.log).toBe(true);
      expect(keeping.canRender?.(ctx.config)).toBe(true);

      // The renderer starts at the first render (no prepare() here): spoil the state it would start from.
      const workRoot = path.join(ctx.config.projectRoot, 'node_modules', '.cache', 'site-publish');
      const workDir = fs.readdirSync(workRoot).find((name) => name.startsWith(`unloadable-${process.pid}-`));
      expect(workDir).toBeDefined();
      fs.writeFileSync(path.join(workRoot, workDir ?? '', 'renderer-state.json'), '{ not JSON');

      const nextDir = path.join(ctx.config.dataDir, 'out', 'unloadable-next');
      fs.cpSync(outDir, nextDir, { recursive: true });
      const rendered = await keeping.render?.({ id: 'unloadable-next', outDir: nextDir, contentDir, paths: ['/'], config: ctx.config });
      expect(rendered?.ok).toBe(false);
      expect(rendered?.log).toMatch(/renderer exited with code 1/);
      expect(rendered?.log).toContain('JSON');
      expect(keeping.canRender?.(ctx.config)).toBe(false);
    },
    BUILD_TIMEOUT,
  );
});
