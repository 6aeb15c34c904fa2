// The publish queue: content writers call schedule(); this runs one build at a time, coalesces the
// changes that arrive meanwhile into exactly one more build, and switches the live site only after a
// build succeeded. A failed build changes nothing that readers see; its log stays for the admin.
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/client.ts';
import type { Config } from '../env.ts';
import type { Logger } from '../log.ts';
import { createAstroBuildRunner, type BuildResult, type BuildRunner } from './build-runner.ts';
import {
  createBuildDir,
  findCurrentBuild,
  FAILURE_LOG,
  findPreviousBuildId,
  forgetPreviousBuild,
  hasOwnSearchIndex,
  linkBuildDir,
  makeBuildPublic,
  pruneBuilds,
  recordSearchIndexed,
  switchCurrentBuild,
  WORK_DIR,
  type BuildLocation,
} from './build-dirs.ts';
import { codeVersion, recordCodeVersion } from './code-version.ts';
import { affectedRoutes } from './dependency-map.ts';
import { exportSnapshot, writeSnapshot } from './export-snapshot.ts';
import type { SiteSnapshot } from '../../common/snapshot-schema.ts';
import type { Publisher, PublishStatus } from './types.ts';
import { buildPeakRss, publishDuration, publishFailures } from '../ops/metrics.ts';
import { CARRY_MS } from '../static/static-site.ts';

export { findCurrentBuild } from './build-dirs.ts';

export interface PublisherOptions {
  config: Config;
  db: Db;
  log: Logger;
  /** Defaults to the real Astro + Pagefind runner; tests pass fakes. */
  runBuild?: BuildRunner;
  /** Called with a finished build before it becomes `current`; the server loads it into memory here. Throwing fails the publish. */
  onLive: (buildDir: string, buildId: string) => void | Promise<void>;
  /** Told every change of status() (a build queued, started, finished); the primary shares it with the other processes. */
  onStatusChange?: (status: PublishStatus) => void;
  now?: () => number;
  /** The version of the code that builds (code-version.ts), recorded in every build; defaults to this project's. */
  codeVersion?: string;
  /** Tests only: called at named points of a publish, so a test can fail or kill it there. */
  fault?: (point: FaultPoint, buildDir: string) => void | Promise<void>;
}

/** Where a test may fail or kill a publish: before the processes load it, before and after `builds/current` switches. */
export type FaultPoint = 'before-live' | 'before-switch' | 'after-switch';

/** What the admin sees of a failed build: its end, where the error is. */
const FAILURE_TAIL_LINES = 120;
const FAILURE_TAIL_CHARS = 12_000;
/** Reasons are only for the server log; a burst of edits must not grow the list without bound. */
const MAX_REASONS = 20;

/** The primary's build queue: a Publisher that can also be told to stop (docs/decisions/0033-graceful-stop.md). */
export interface StoppablePublisher extends Publisher {
  /**
   * No build starts after the one running (if any); later requests stay `pending`. whenIdle() then waits for
   * that one only. Search indexing in progress is ended: the next start makes the index (resumeSearchIndex).
   */
  stop(): void;
  /**
   * On start: when the live build's search index was not made from its pages (the last run stopped or died
   * before indexing them), makes it in the background, as after a publish. Nothing happens while a build runs
   * (it indexes after itself).
   */
  resumeSearchIndex(): void;
}

export function createPublisher(options: PublisherOptions): StoppablePublisher {
  const { config, db, log, onLive, fault } = options;
  const runBuild = options.runBuild ?? createAstroBuildRunner({ log });
  const now = options.now ?? Date.now;
  const version = options.codeVersion ?? codeVersion(config.projectRoot);

  let current: BuildLocation | null = findCurrentBuild(config);
  // A page open across a switch may still ask for the replaced build's hashed files: the serving processes
  // answer them for CARRY_MS, and nginx from `builds/previous` for as long (decision 0006).
  const forgetPreviousLater = (id: string) => {
    const timer = setTimeout(() => {
      try {
        forgetPreviousBuild(config.buildsDir, id);
      } catch (error) {
        log.warn('publish: could not remove builds/previous', error);
      }
    }, CARRY_MS);
    timer.unref();
  };
  const switchLive = (id: string) => {
    const replaced = switchCurrentBuild(config.buildsDir, id);
    if (replaced) forgetPreviousLater(replaced);
  };
  const leftover = findPreviousBuildId(config.buildsDir);
  if (leftover) forgetPreviousLater(leftover);
  let running: Promise<void> | null = null;
  let pending = false;
  let stopped = false;
  let reasons: string[] = [];
  let lastBuildFailed = false;
  let lastSuccess: PublishStatus['lastSuccess'] = null;
  let lastFailure: PublishStatus['lastFailure'] = null;
  /** What the live build was made from and its routes: an incremental publish compares the next snapshot with it (0044). */
  let live: { snapshot: SiteSnapshot; paths: string[] } | null = null;
  /** The live build's search index lags its pages (an incremental publish); updated once the queue is empty. */
  let searchStale = false;
  /** The last try to index the live pages failed (not superseded): the status says 'stale' until the next try. */
  let searchFailed = false;
  let indexing = false;
  /** Ends the search indexing in progress: a change that arrives meanwhile is published first (issue 31). */
  let indexAbort: AbortController | null = null;
  let fullRequested = false;

  const status = (): PublishStatus => ({
    // Indexing for search happens after "live": the pages are served, so it does not read as building.
    state: running && (!indexing || pending) ? 'building' : lastBuildFailed ? 'failed' : 'idle',
    pending,
    // Only a runner that indexes search after "live" reports it (fakes in tests do not).
    ...(runBuild.indexSearch ? { search: !searchStale ? ('updated' as const) : searchFailed ? ('stale' as const) : ('updating' as const) } : {}),
    currentBuildId: current?.id ?? null,
    lastSuccess,
    lastFailure,
  });
  const reportStatus = () => {
    try {
      options.onStatusChange?.(status());
    } catch (error) {
      log.warn('publish: could not share the publish status', error);
    }
  };

  // Checking `pending` and clearing `running` happen in one synchronous step (the finally right after the
  // loop test), so a schedule() can never slip between them and be lost.
  async function drain(): Promise<void> {
    // Only indexing on start (resumeSearchIndex) leaves no build process behind: a restart idles as small as before.
    let built = false;
    try {
      // Let the current turn finish first: a handler that changes several things in one request
      // (delete selected images, reorder) schedules several times but needs one build.
      await new Promise((resolve) => setImmediate(resolve));
      // Started by resumeSearchIndex: the index first, unless a change came in meanwhile (then it follows the build).
      if (!pending && searchStale && !stopped) await refreshSearch();
      while (pending && !stopped) {
        built = true;
        pending = false;
        const why = reasons;
        reasons = [];
        // This build takes up everything queued so far: nothing is pending behind it any more.
        reportStatus();
        try {
          await publishOnce(why);
        } catch (error) {
          // Only reached when even the build directory could not be made (disk full, permissions).
          log.error('publish: unexpected failure', error);
          publishFailures.inc();
          lastBuildFailed = true;
          lastFailure = { at: new Date(now()).toISOString(), durationMs: 0, log: error instanceof Error ? error.message : String(error) };
        }
        reportStatus();
        // The pages are live; the search index follows from them, unless another change is already waiting.
        if (!pending && searchStale && !stopped) await refreshSearch();
      }
    } finally {
      running = null;
      reportStatus();
      // The queue is empty: the runner gets ready for the next publish while nothing is being built.
      if (!stopped && built) prepareNextBuild();
    }
  }

  function prepareNextBuild(): void {
    try {
      // Not awaited: whether the warm-up worked only changes how fast the next build is.
      void runBuild.prepare?.(config);
    } catch (error) {
      log.warn('publish: could not prepare the next build', error);
    }
  }

  /**
   * An incremental publish when the runner kept the live build's bundle and the dependency map can name what
   * changed; null means build in full. On a render that fails, the build directory is emptied and the publish
   * builds in full instead (the runner has let its renderer go).
   */
  async function renderIncrementally(build: BuildLocation, contentDir: string, snapshot: SiteSnapshot): Promise<BuildResult | null> {
    if (fullRequested || !live || !current || !runBuild.render || !runBuild.canRender?.(config)) return null;
    const affected = affectedRoutes(live.snapshot, snapshot, live.paths);
    if (affected.kind === 'full') {
      log.info(`publish ${build.id}: full build (${affected.reason})`);
      return null;
    }
    try {
      // The pages' search index is linked too: stale for a moment, rebuilt after "live" (refreshSearch).
      linkBuildDir(current.dir, build.dir);
    } catch (error) {
      log.warn(`publish ${build.id}: could not link the live build; building in full`, error);
      emptyDir(build.dir);
      return null;
    }
    const started = performance.now();
    // A renderer that throws (a page's code, a full disk) is a failed render like any other: build in full.
    const result: BuildResult = await runBuild
      .render({ id: build.id, outDir: build.dir, contentDir, paths: affected.paths, config })
      .catch((error: unknown) => ({
        ok: false,
        log: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }));
    if (result.ok) {
      log.info(
        `publish ${build.id}: rendered ${result.written?.length ?? 0} file(s) of ${affected.paths.length} route(s) in ${Math.round(performance.now() - started)} ms`,
      );
      return result;
    }
    log.warn(`publish ${build.id}: the incremental render failed; building in full\n${tail(result.log)}`);
    emptyDir(build.dir);
    return null;
  }

  async function publishOnce(why: string[]): Promise<void> {
    const startedAt = now();
    const build = createBuildDir(config.buildsDir, startedAt);
    const contentDir = path.join(config.buildsDir, WORK_DIR, build.id);
    log.info(`publish ${build.id}: building (${why.join('; ') || 'requested'})`);

    let result: BuildResult = { ok: false, log: '' };
    let snapshot: ReturnType<typeof exportSnapshot> | undefined;
    let incremental = false;
    try {
      snapshot = exportSnapshot(db, config, new Date(startedAt));
      writeSnapshot(contentDir, snapshot);
      const rendered = await renderIncrementally(build, contentDir, snapshot);
      incremental = rendered !== null;
      // A full build keeps its bundle for the next publish and leaves the search index to after "live" (readers
      // keep the old index meanwhile). The first build too: a server's first pages are not held back by
      // Pagefind's seconds, and a search made before its index exists says the index is still being made
      // (docs/decisions/0058-first-build-search-after-live.md).
      fullRequested = false;
      const searchLater = runBuild.indexSearch !== undefined;
      result = rendered ?? (await runBuild({ id: build.id, outDir: build.dir, contentDir, config, searchLater }));
      // Until refreshSearch indexes the new pages, readers search with the live build's index.
      if (!rendered && searchLater && result.ok && current) linkSearchIndex(current.dir, build.dir);
      // An "ok" build without a home page would switch readers to an empty site.
      if (result.ok && !fs.existsSync(path.join(build.dir, 'index.html'))) {
        result = { ok: false, log: `${result.log}\n[publish] the build produced no index.html; the live site is kept\n` };
      }
      if (result.ok) {
        // A restart compares it with its own code: a build by other code is refreshed in the background.
        recordCodeVersion(build.dir, version);
        await fault?.('before-live', build.dir);
        await onLive(build.dir, build.id);
        // After onLive: it wrote the compressed forms nginx serves too.
        makeBuildPublic(build.dir);
        await fault?.('before-switch', build.dir);
        switchLive(build.id);
        await fault?.('after-switch', build.dir);
      }
    } catch (error) {
      result = { ok: false, log: `${result.log}\n[publish] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n` };
    } finally {
      fs.rmSync(contentDir, { recursive: true, force: true });
    }

    const finishedAt = now();
    const durationMs = finishedAt - startedAt;
    publishDuration.observe({ outcome: result.ok ? 'ok' : 'failed' }, durationMs / 1000);
    if (!result.ok) publishFailures.inc();
    if (result.peakRssBytes !== undefined) buildPeakRss.set(result.peakRssBytes);
    if (result.ok) {
      const previous = current;
      current = build;
      if (snapshot) live = { snapshot, paths: incremental ? (live?.paths ?? []) : (result.paths ?? []) };
      if (!result.paths && !incremental) live = null;
      if (incremental || runBuild.indexSearch) searchStale = true;
      lastBuildFailed = false;
      lastSuccess = { at: new Date(finishedAt).toISOString(), durationMs, buildId: build.id };
      log.info(`publish ${build.id}: live after ${durationMs} ms`);
      afterSuccess(previous, snapshot);
    } else {
      fs.rmSync(build.dir, { recursive: true, force: true });
      // Whatever the renderer holds may not match the live build any more: the next publish builds in full.
      live = null;
      lastBuildFailed = true;
      lastFailure = { at: new Date(finishedAt).toISOString(), durationMs, log: tail(result.log) };
      log.error(`publish ${build.id}: failed after ${durationMs} ms; the live site is unchanged (log in ${path.join(config.buildsDir, FAILURE_LOG)})`);
      try {
        fs.writeFileSync(path.join(config.buildsDir, FAILURE_LOG), result.log);
      } catch (error) {
        log.warn('publish: could not write the failure log', error);
      }
    }
  }

  /**
   * Pagefind cannot replace one page in an index: the live build's pages are indexed again into a copy of it
   * (hard links, the old index left out), which then goes live like any build. A failure keeps the pages and
   * the old index live and is only logged; the next publish tries again.
   */
  async function refreshSearch(): Promise<void> {
    const indexed = current;
    if (!indexed || !runBuild.indexSearch) {
      searchStale = false;
      return;
    }
    indexing = true;
    searchFailed = false;
    const abort = new AbortController();
    indexAbort = abort;
    reportStatus();
    const started = now();
    const build = createBuildDir(config.buildsDir, started);
    const superseded = () => abort.signal.aborted || pending || stopped || current !== indexed;
    try {
      linkBuildDir(indexed.dir, build.dir, ['pagefind']);
      const result = await runBuild.indexSearch(build.dir, config, abort.signal);
      if (superseded()) throw new SearchSuperseded();
      if (!result.ok) throw new Error(tail(result.log));
      recordSearchIndexed(build);
      await onLive(build.dir, build.id);
      makeBuildPublic(build.dir);
      switchLive(build.id);
      const previous = current;
      current = build;
      searchStale = false;
      // The publish it follows stays the last success, now with its index; an index made on start is no publish.
      if (lastSuccess) lastSuccess = { at: new Date(now()).toISOString(), durationMs: lastSuccess.durationMs, buildId: build.id };
      log.info(`publish ${build.id}: search updated after ${now() - started} ms`);
      afterSuccess(previous, undefined);
    } catch (error) {
      fs.rmSync(build.dir, { recursive: true, force: true });
      // Still stale: the next publish tries again (the status keeps saying so meanwhile).
      if (error instanceof SearchSuperseded) {
        log.info(
          stopped
            ? 'publish: the search index was left unfinished by the stop; the next start makes it'
            : 'publish: the search index gave way to a newer publish, which indexes again after it',
        );
      }
      // The end of a failed run's log is where its error is (its first line is only the command).
      else {
        searchFailed = true;
        log.warn(`publish: the search index was not updated: ${error instanceof Error ? lastLine(error.message) : String(error)}`);
      }
    } finally {
      indexing = false;
      indexAbort = null;
      reportStatus();
    }
  }

  // Housekeeping after a switch: failures here must not turn a live build into a reported failure.
  function afterSuccess(previous: BuildLocation | null, snapshot: ReturnType<typeof exportSnapshot> | undefined): void {
    try {
      // The previous build stays for a quick rollback and for requests nginx may still be answering from it.
      pruneBuilds(
        config.buildsDir,
        [current?.id, previous?.id].filter((id): id is string => id !== undefined),
      );
    } catch (error) {
      log.warn('publish: could not prune old builds', error);
    }
    try {
      // content/ mirrors what is live, so `astro dev` shows the same content as the served site.
      if (snapshot) writeSnapshot(config.contentDir, snapshot);
    } catch (error) {
      log.warn(`publish: could not update the snapshot in ${config.contentDir}`, error);
    }
  }

  return {
    schedule(reason, options) {
      try {
        pending = true;
        // Readers wait for this change, not for the index of the previous one (made again after it).
        indexAbort?.abort();
        if (options?.full) fullRequested = true;
        if (reasons.length < MAX_REASONS) reasons.push(reason);
        if (!running && !stopped) running = drain();
        reportStatus();
      } catch (error) {
        log.error('publish: could not schedule a build', error);
      }
    },
    status,
    async whenIdle() {
      while (running) await running;
    },
    stop() {
      stopped = true;
      // Pagefind would run to its end only to be thrown away (the stop waited for it).
      indexAbort?.abort();
    },
    resumeSearchIndex() {
      if (running || stopped || !current || !runBuild.indexSearch || hasOwnSearchIndex(current)) return;
      log.info(`publish: the live build's search index lags its pages (the last run ended before it was made); making it`);
      searchStale = true;
      running = drain();
      reportStatus();
    },
  };
}

function linkSearchIndex(from: string, to: string): void {
  const index = path.join(from, 'pagefind');
  if (!fs.existsSync(index) || fs.existsSync(path.join(to, 'pagefind'))) return;
  fs.mkdirSync(path.join(to, 'pagefind'));
  linkBuildDir(index, path.join(to, 'pagefind'));
}

function emptyDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
}

/** A search index that a newer publish (or the server's stop) made pointless: not a failure. */
class SearchSuperseded extends Error {
  constructor() {
    super('superseded by a newer publish');
  }
}

/** The last line of a log that says something. */
function lastLine(log: string): string {
  return (
    log
      .trimEnd()
      .split('\n')
      .findLast((line) => line.trim() !== '') ?? log
  );
}

function tail(log: string): string {
  const lines = log.trimEnd().split('\n');
  const last = lines.slice(-FAILURE_TAIL_LINES).join('\n');
  return last.length > FAILURE_TAIL_CHARS ? last.slice(-FAILURE_TAIL_CHARS) : last;
}
