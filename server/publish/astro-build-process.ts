// The warm Astro build process (docs/decisions/0020-warm-astro-builds.md), forked by build-runner.ts, never
// started by hand. It runs `astro build` through Astro's programmatic API once per message, one at a time,
// so a publish no longer pays for starting Node, loading Astro, Vite and Rolldown, and warming their code:
// measured on 2 cores, a 1,000-post site builds in about 2 s here against 3.7 s in a fresh `astro build`.
//
// Each build runs in its own working directory: Astro writes the pages' server bundle under
// `<cwd>/.astro/.prerender` and imports it, and a path used before would hand back the previous build's
// modules from Node's module cache, with their snapshot. The parent recycles this process after a few
// builds, since those modules are never freed.
import { build } from 'astro';
import fs from 'node:fs';
import v8 from 'node:v8';
import type { AstroBuildDone, AstroBuildJob } from './warm-astro.ts';

if (!process.send) {
  console.error('server/publish/astro-build-process.ts is started by the publisher, not by hand.');
  process.exit(1);
}

const reply = (message: AstroBuildDone) => process.send?.(message);

// The server went away: nothing will ask for a build again.
process.on('disconnect', () => process.exit(0));

process.on('message', (job: AstroBuildJob) => {
  void runBuild(job);
});

async function runBuild(job: AstroBuildJob): Promise<void> {
  let ok = false;
  try {
    resetPeakRss();
    process.env.CONTENT_DIR = job.contentDir;
    process.chdir(job.workDir);
    await build({ root: job.root, outDir: job.outDir, logLevel: 'info' });
    ok = true;
  } catch (error) {
    // The log (this process's output) is what the admin reads about a failed build.
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  }
  // The build's garbage (and the native memory its objects hold) goes now, not during the next build, and the
  // heap left is what earlier builds keep: the parent replaces the process when it grows too large.
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  reply({
    type: 'done',
    id: job.id,
    ok,
    rssBytes: rss,
    // maxRSS (KiB): this build's peak where resetPeakRss() works (Linux), else this process's peak so far.
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    heapUsedBytes: heapUsed,
    heapLimitBytes: v8.getHeapStatistics().heap_size_limit,
  });
}

/**
 * Sets this process's high-water mark (VmHWM, and so maxRSS) back to its resident memory now, so the peak
 * reported after the build is this build's, not the cold first build's that a warm process would otherwise
 * carry (docs/decisions/0034-lean-publishing.md). Linux ≥ 4.0 only; elsewhere the mark keeps its whole life.
 */
function resetPeakRss(): void {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux, or /proc not writable: the peak reported then covers earlier builds too.
  }
}
