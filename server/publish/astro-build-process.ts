// An Astro build process (docs/decisions/0036-one-build-per-process.md), forked by warm-astro.ts, never
// started by hand. It loads Astro once, may warm up by building the tiny warm-up site while nothing is being
// published, then runs one real `astro build` through Astro's programmatic API and is let go: Rolldown keeps
// every build's bundles and options reachable from native handles it never releases, so a process that
// built before carries tens of MB more into each build (measured in 0036).
//
// Messages are handled one at a time, in order: a build sent while the warm-up runs waits for the rest of it
// (the warm-up takes about a second); one sent before the warm-up started skips it.
//
// The real build runs in its own working directory: Astro writes the pages' server bundle under
// `<cwd>/.astro/.prerender` and imports it from there.
//
// Astro itself is imported when the first message asks for a build or a warm-up, not before: a process
// forked for a build that is waiting (a cold start) then starts the build's markdown pre-render at once, and
// the pre-render's processes work while Astro loads (about 0.6 s of this process's core; bench: cold start).
import type { build } from 'astro';
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import type { AstroBuildDone, AstroBuildJob, AstroWarmUpDone, BuildProcessMessage, WarmUpJob } from './warm-astro.ts';
import { createKeptRenderer } from './kept-renderer.ts';
import { peakRssBytes, resetPeakRss } from './peak-rss.ts';
import { describePrerender, forkMarkdownPrerender, type MarkdownPrerender, type PrerenderReport } from './markdown-prerender.ts';
import { pageGenerationIntegration } from './page-generation.ts';

if (!process.send) {
  console.error('server/publish/astro-build-process.ts is started by the publisher, not by hand.');
  process.exit(1);
}

const reply = (message: AstroBuildDone | AstroWarmUpDone) => process.send?.(message);

/** Astro, loaded once, on first use (see the top of this file). */
const loadAstro = () => import('astro');
const astroBuild = async (...args: Parameters<typeof build>) => (await loadAstro()).build(...args);

/** The warm-up's working copy while it runs: removed here too if the server goes away meanwhile. */
let warmUpDir: string | null = null;

// The server went away: nothing will ask for a build again.
process.on('disconnect', () => {
  if (warmUpDir) fs.rmSync(warmUpDir, { recursive: true, force: true });
  process.exit(0);
});

const inbox: BuildProcessMessage[] = [];
let working = false;
process.on('message', (message: BuildProcessMessage) => {
  inbox.push(message);
  // Messages sent while Astro was loading arrive together: look at all of them before starting any.
  setImmediate(() => void work());
});

async function work(): Promise<void> {
  if (working) return;
  working = true;
  try {
    for (let next = inbox.shift(); next; next = inbox.shift()) {
      if (next.type === 'build') {
        await runBuild(next);
        continue;
      }
      // Astro loads before the warm-up starts, and a build sent meanwhile goes first: the warm-up would
      // delay it by more than it saves.
      await loadAstro();
      if (inbox.some((message) => message.type === 'build')) reply({ type: 'warm', ok: false });
      else await warmUp(next);
    }
  } finally {
    working = false;
  }
}

async function runBuild(job: AstroBuildJob): Promise<void> {
  let ok = false;
  let prerender: MarkdownPrerender<PrerenderReport> | null = null;
  let markdown: PrerenderReport | undefined;
  let kept: { stateFile: string; paths: string[] } | undefined;
  try {
    resetPeakRss();
    process.env.CONTENT_DIR = job.contentDir;
    process.chdir(job.workDir);
    prerender = startPrerender(job);
    const beforePages = prerender?.done.then((summary) => {
      markdown = summary;
      reportPrerender(summary);
    });
    const keep = job.keep ? createKeptRenderer({ beforePages }) : null;
    const integration = keep ? keep.integration : pageGenerationIntegration({ beforePages });
    await astroBuild({ root: job.root, outDir: job.outDir, logLevel: 'info', integrations: [integration] });
    ok = true;
    // What a renderer of later publishes needs, for warm-astro.ts to start one in a fresh process (0056). A
    // build that could not be kept is still a good build: the next publishes build in full.
    if (keep) kept = await keep.afterBuild().catch((error: unknown) => void console.warn(`[publish] not kept for incremental publishes: ${String(error)}`));
  } catch (error) {
    // The log (this process's output) is what the admin reads about a failed build.
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  } finally {
    // A build that failed before its pages leaves the workers nothing worth finishing.
    prerender?.stop();
  }
  reply({
    type: 'done',
    id: job.id,
    ok,
    // This build's peak where resetPeakRss() works (Linux), else this process's peak so far.
    // The markdown pre-render's process (0052) is not in it: its peak is in the log, beside the build's start.
    peakRssBytes: peakRssBytes(),
    heapLimitBytes: v8.getHeapStatistics().heap_size_limit,
    ...(kept ? { paths: kept.paths, rendererState: kept.stateFile } : {}),
    ...(markdown ? { markdown } : {}),
  });
}

/**
 * Fills the markdown cache on worker threads while Astro starts and bundles (docs/decisions/0052-markdown-prerender.md).
 * The build process's environment names the cache (buildChildEnv); without one, as in `astro build` by hand,
 * the build renders every body itself.
 */
function startPrerender(job: AstroBuildJob): MarkdownPrerender<PrerenderReport> | null {
  const cacheDir = process.env.MARKDOWN_CACHE_DIR;
  if (!cacheDir || job.prerender?.threads === 0) return null;
  return forkMarkdownPrerender({ contentDir: job.contentDir, cacheDir, threads: job.prerender?.threads, workerFile: job.prerender?.workerFile });
}

function reportPrerender(summary: PrerenderReport): void {
  const words = describePrerender(summary);
  if (words) console.log(`[markdown] ${words}`);
}

/**
 * Builds the warm-up site (server/publish/warm-up-site) from a copy in `job.workDir`, which it removes after.
 * Its output is thrown away and its log is not the admin's business: only whether it worked is reported.
 */
async function warmUp(job: WarmUpJob): Promise<void> {
  let ok = false;
  try {
    warmUpDir = job.workDir;
    fs.cpSync(job.siteDir, job.workDir, { recursive: true });
    process.chdir(job.workDir);
    await astroBuild({ root: job.workDir, outDir: path.join(job.workDir, 'dist'), logLevel: 'silent' });
    ok = true;
  } catch {
    // A failed warm-up costs the next build its speed-up, nothing else: the real build reports its own errors.
  } finally {
    process.chdir(path.dirname(job.workDir));
    fs.rmSync(job.workDir, { recursive: true, force: true });
    warmUpDir = null;
  }
  // The warm-up's garbage (and the native memory its objects hold) goes now, not during the real build.
  (globalThis as { gc?: () => void }).gc?.();
  reply({ type: 'warm', ok });
}
