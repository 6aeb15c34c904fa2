// Runs each Astro build in a build process of its own, made ready ahead (docs/decisions/0036-one-build-per-process.md):
// after a publish, prepare() forks astro-build-process.ts, which loads Astro and warms up on a tiny site while
// nothing is being built; the next build() takes that process, sends it the job, collects what it prints as
// the build's log, and lets it go when the build ends. A build with no process ready (the first after a start,
// after a long idle time, or right behind another) forks one on the spot and builds without the warm-up.
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { appendToBuildLog } from './build-log.ts';
import type { PrerenderReport } from './markdown-prerender.ts';

export interface AstroBuildJob {
  type: 'build';
  id: string;
  root: string;
  outDir: string;
  /** The build's own working directory (see astro-build-process.ts). */
  workDir: string;
  /** The snapshot directory, CONTENT_DIR for this build. */
  contentDir: string;
  /** Leave what a renderer of later incremental publishes needs (kept-renderer.ts, 0044, 0056). */
  keep?: boolean;
  /** The markdown pre-render's threads (0 for none) and worker module, when not the defaults (tests; 0052). */
  prerender?: { threads?: number; workerFile?: string };
}

/** Render the routes a change touches into a new build directory, with the bundle a kept build left (renderer-process.ts). */
export interface RenderJob {
  type: 'render';
  id: string;
  contentDir: string;
  outDir: string;
  paths: string[];
}

export interface AstroRenderDone {
  type: 'rendered';
  id: string;
  ok: boolean;
  written: string[];
  removed: string[];
  /** Every pathname of the build after this render. */
  paths: string[];
  ms: number;
  /** The renderer's peak resident memory during this render. */
  peakRssBytes?: number;
}

export interface WarmUpJob {
  type: 'warm-up';
  /** The warm-up site's sources (WARM_UP_SITE). */
  siteDir: string;
  /** A fresh directory the site is copied into and built in; removed after. */
  workDir: string;
}

export type BuildProcessMessage = AstroBuildJob | WarmUpJob;

export interface AstroBuildDone {
  type: 'done';
  id: string;
  ok: boolean;
  /** The build's peak resident memory (the metric site_publish_build_peak_rss_bytes). */
  peakRssBytes: number;
  /** V8's heap limit in the process (set by BUILD_PROCESS_EXEC_ARGV). */
  heapLimitBytes: number;
  /** With `keep`: every pathname of the build, and the state file a renderer process starts from. */
  paths?: string[];
  rendererState?: string;
  /** What the markdown pre-render did before the pages (docs/decisions/0052-markdown-prerender.md), when it ran. */
  markdown?: PrerenderReport;
}

export interface AstroWarmUpDone {
  type: 'warm';
  /** False when the warm-up failed or was skipped for a build already waiting. */
  ok: boolean;
}

export interface WarmAstroOptions {
  /** The process's environment; CONTENT_DIR is set per build. A ready process made with another is not used. */
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

export interface PrepareOptions {
  env: NodeJS.ProcessEnv;
  /** Where the warm-up site is copied to and built: a writable directory inside the project (see build-runner.ts). */
  workDir: string;
}

const ENTRY = path.join(import.meta.dirname, 'astro-build-process.ts');
const RENDERER_ENTRY = path.join(import.meta.dirname, 'renderer-process.ts');
/** The warm-up site's sources: copied, never built in place (the project is read-only under systemd). */
export const WARM_UP_SITE = path.join(import.meta.dirname, 'warm-up-site');
/**
 * V8's limits for the build process (docs/decisions/0034-lean-publishing.md). Left alone, V8 grows the heap
 * towards its default limit (a quarter of the machine's memory) and collects seldom; the native memory of
 * Rolldown and the Astro compiler is released only when the JavaScript objects holding it are collected,
 * so a seldom-collected heap also keeps hundreds of MB of native memory. A 768 MB old space (a 5,000-post
 * build keeps about 230 MB live) and 8 MB semi-spaces cut the publish's peak by about a third at 1,000 and
 * 5,000 posts in no more time; 512 MB saved little more and cost ~18% of the time at 5,000, 320 MB thrashed.
 * --expose-gc lets the process collect after its warm-up.
 */
export const BUILD_PROCESS_EXEC_ARGV = ['--max-old-space-size=768', '--max-semi-space-size=8', '--expose-gc'];
/**
 * The renderer's limits (docs/decisions/0056-fresh-renderer.md). It starts at about 140 MB resident (Astro's
 * build modules, which import Vite, and the bundle); what it renders adds heap. Rendering all 434 pages of the
 * 5,000-post bench site at once, measured: old space capped at 96 MB 259 MB peak in 2.7 s, 128 MB 296 MB in
 * 2.6 s, 192 MB 309 MB in 2.3 s, uncapped 546 MB. A render that outgrew the cap would end the process, and the
 * publish would build in full.
 */
export const RENDERER_EXEC_ARGV = ['--max-old-space-size=128', '--max-semi-space-size=8'];
/** A ready process holds about 260 MB: it is let go when nobody has published for this long. */
const IDLE_MS = 10 * 60_000;

export interface RenderResult {
  ok: boolean;
  log: string;
  written: string[];
  removed: string[];
  ms?: number;
  peakRssBytes?: number;
}

export interface WarmAstro {
  build(
    job: Omit<AstroBuildJob, 'type'>,
    options: WarmAstroOptions,
  ): Promise<{ ok: boolean; log: string; peakRssBytes?: number; heapLimitBytes?: number; paths?: string[]; markdown?: PrerenderReport }>;
  /** True when a full build was kept (its process waits as the renderer) for this environment. */
  canRender(env: NodeJS.ProcessEnv): boolean;
  /** Renders changed routes with the kept build; a failure ends the renderer (the next publish builds in full). */
  render(job: Omit<RenderJob, 'type'>, options: { timeoutMs: number }): Promise<RenderResult>;
  /**
   * Makes the process for the next build ready now (loads Astro, warms up), unless one is ready or starting.
   * Resolves true once it has warmed up, false when the warm-up failed or was skipped or the process ended
   * first (the next build then simply runs cold); never rejects.
   */
  prepare(options: PrepareOptions): Promise<boolean>;
  /** Ends the ready process, if any (the server stopping; tests). */
  close(): void;
}

interface ReadyProcess {
  child: ChildProcess;
  envKey: string;
  idleTimer: NodeJS.Timeout;
  warmedUp: Promise<boolean>;
}

/** How the log says that a process gave a job no answer. */
interface JobWording {
  /** The process: 'the build process', 'the renderer'. */
  process: string;
  /** Its work, as in "… exceeded 600000 ms and was stopped": 'build', 'rendering'. */
  work: string;
  /** What failed when the job could not be sent: 'start the build', 'reach the renderer'. */
  notSent: string;
  /** The note under an answer that says the job failed: 'astro build failed', 'rendering failed'. */
  failed: string;
}

/**
 * Hands `job` to `child` and collects the child's output into the job's log until the child answers it
 * (`answerOf` picks this job's answer out of its messages), exits, cannot be reached or runs out of time,
 * then lets go of the child's events and output: the one way a build and a render go to a process. The answer
 * is taken a turn later, so that output still in the pipe reaches the log first; one that says the job failed
 * ends the log with `wording.failed`. What becomes of the process afterwards (ended, kept as the renderer) is
 * the caller's.
 */
function runJob<Message, Answer extends { ok: boolean }>(
  child: ChildProcess,
  options: { log: string; job: AstroBuildJob | RenderJob; timeoutMs: number; wording: JobWording; answerOf: (message: Message) => Answer | undefined },
): Promise<{ answer: Answer | null; log: string }> {
  const { wording } = options;
  let log = options.log;
  const append = (chunk: Buffer) => (log = appendToBuildLog(log, chunk));
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  child.channel?.ref();
  return new Promise((resolve) => {
    let settled = false;
    const settle = (answer: Answer | null, note?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      child.stdout?.off('data', append);
      child.stderr?.off('data', append);
      resolve({ answer, log: note ? log + note : log });
    };
    const onMessage = (message: Message) => {
      const answer = options.answerOf(message);
      if (answer !== undefined) setImmediate(() => settle(answer, answer.ok ? undefined : `\n[publish] ${wording.failed}\n`));
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      settle(null, `\n[publish] ${wording.process} exited with ${signal ? `signal ${signal}` : `code ${code}`}\n`);
    const timer = setTimeout(() => settle(null, `\n[publish] ${wording.work} exceeded ${options.timeoutMs} ms and was stopped\n`), options.timeoutMs);
    child.on('message', onMessage);
    child.on('exit', onExit);
    child.send(options.job, (error) => {
      if (error) settle(null, `\n[publish] could not ${wording.notSent}: ${error.message}\n`);
    });
  });
}

export function createWarmAstro(): WarmAstro {
  let ready: ReadyProcess | null = null;
  /** The renderer process started after a kept full build (0044, 0056); it holds the build's bundle, so it is let go when idle. */
  let renderer: { child: ChildProcess; envKey: string; idleTimer: NodeJS.Timeout } | null = null;

  const end = (child: ChildProcess) => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };

  /**
   * A kept build's state, before its renderer starts: it starts once the publisher is idle (prepare()) or at
   * the first render, so it takes no processor time from the switch to the build it follows.
   */
  let pendingRenderer: { stateFile: string; env: NodeJS.ProcessEnv; envKey: string } | null = null;

  const discardRenderer = () => {
    pendingRenderer = null;
    if (!renderer) return;
    clearTimeout(renderer.idleTimer);
    end(renderer.child);
    renderer = null;
  };

  /** A fresh process for the bundle a kept build left: none of the build's memory comes with it (0056). */
  const startRenderer = (stateFile: string, env: NodeJS.ProcessEnv): ChildProcess =>
    fork(RENDERER_ENTRY, [stateFile], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], execArgv: RENDERER_EXEC_ARGV });

  const startPendingRenderer = () => {
    if (!pendingRenderer) return;
    const { stateFile, env, envKey } = pendingRenderer;
    keepAsRenderer(startRenderer(stateFile, env), envKey);
  };

  const keepAsRenderer = (child: ChildProcess, envKey: string) => {
    discardRenderer();
    child.unref();
    child.channel?.unref();
    child.stdout?.resume();
    child.stderr?.resume();
    const idleTimer = setTimeout(discardRenderer, IDLE_MS);
    idleTimer.unref();
    renderer = { child, envKey, idleTimer };
    child.once('exit', () => {
      if (renderer?.child === child) {
        clearTimeout(renderer.idleTimer);
        renderer = null;
      }
    });
  };

  const discardReady = () => {
    if (!ready) return;
    clearTimeout(ready.idleTimer);
    end(ready.child);
    ready = null;
  };

  const start = (env: NodeJS.ProcessEnv): ChildProcess => {
    const child = fork(ENTRY, [], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], execArgv: BUILD_PROCESS_EXEC_ARGV });
    // Nothing reads a ready process's output until its build starts (the warm-up is silent anyway): flowing,
    // unread output is dropped rather than filling the pipe and blocking the process.
    child.stdout?.resume();
    child.stderr?.resume();
    // Waiting for a build, the process must not keep the server (or a test run) alive.
    child.unref();
    child.channel?.unref();
    child.on('exit', () => {
      if (ready?.child === child) {
        clearTimeout(ready.idleTimer);
        ready = null;
      }
    });
    return child;
  };

  return {
    async build(job, options) {
      const envKey = JSON.stringify(options.env);
      // A full build replaces what an earlier one kept: never two build-sized processes at once.
      discardRenderer();
      let worker: ChildProcess;
      let origin: string;
      if (ready && ready.envKey === envKey) {
        worker = ready.child;
        clearTimeout(ready.idleTimer);
        ready = null;
        origin = 'made ready ahead';
      } else {
        discardReady();
        worker = start(options.env);
        origin = 'started for this build';
      }
      // Only the real build's output is its log: a warm-up still running says nothing (logLevel silent).
      const { answer, log } = await runJob(worker, {
        log: `$ astro build --root ${job.root} --outDir ${job.outDir} (build process ${worker.pid}, ${origin})\n`,
        job: { ...job, type: 'build' } satisfies AstroBuildJob,
        timeoutMs: options.timeoutMs,
        wording: { process: 'the build process', work: 'build', notSent: 'start the build', failed: 'astro build failed' },
        answerOf: (message: AstroBuildDone | AstroWarmUpDone) => (message.type === 'done' && message.id === job.id ? message : undefined),
      });
      // One build per process: what Rolldown kept of this one must not weigh on the next (0036). A build
      // asked to keep its bundle leaves it to a fresh renderer process for the next publishes (0044, 0056).
      end(worker);
      if (!answer) return { ok: false, log };
      const { ok, peakRssBytes, heapLimitBytes, paths, rendererState, markdown } = answer;
      if (ok && job.keep && paths && rendererState) pendingRenderer = { stateFile: rendererState, env: options.env, envKey };
      return {
        ok,
        log,
        peakRssBytes,
        heapLimitBytes,
        ...(paths ? { paths } : {}),
        ...(markdown ? { markdown } : {}),
      };
    },
    canRender(env) {
      return (renderer ?? pendingRenderer)?.envKey === JSON.stringify(env);
    },
    async render(job, options) {
      startPendingRenderer();
      const current = renderer;
      if (!current) return { ok: false, log: '[publish] no kept build to render with\n', written: [], removed: [] };
      const worker = current.child;
      clearTimeout(current.idleTimer);
      const { answer, log } = await runJob(worker, {
        log: `$ render ${job.paths.length} route(s) into ${job.outDir} (renderer ${worker.pid})\n`,
        job: { ...job, type: 'render' } satisfies RenderJob,
        timeoutMs: options.timeoutMs,
        wording: { process: 'the renderer', work: 'rendering', notSent: 'reach the renderer', failed: 'rendering failed' },
        answerOf: (message: AstroRenderDone) => (message.type === 'rendered' && message.id === job.id ? message : undefined),
      });
      const ok = answer?.ok ?? false;
      if (ok && renderer?.child === worker) {
        worker.channel?.unref();
        renderer.idleTimer = setTimeout(discardRenderer, IDLE_MS);
        renderer.idleTimer.unref();
      } else if (renderer?.child === worker) {
        // Whatever went wrong, the next publish builds in full with a fresh process.
        discardRenderer();
      }
      if (!answer) return { ok: false, log, written: [], removed: [] };
      return {
        ok,
        log,
        written: answer.written,
        removed: answer.removed,
        ms: answer.ms,
        ...(answer.peakRssBytes === undefined ? {} : { peakRssBytes: answer.peakRssBytes }),
      };
    },
    prepare({ env, workDir }) {
      // A kept build renders the next publish: its renderer starts now, and no second process waits beside it.
      startPendingRenderer();
      if (renderer) return Promise.resolve(false);
      const envKey = JSON.stringify(env);
      if (ready?.envKey === envKey) return ready.warmedUp;
      discardReady();
      const child = start(env);
      const idleTimer = setTimeout(discardReady, IDLE_MS);
      idleTimer.unref();
      const warmedUp = new Promise<boolean>((resolve) => {
        const onMessage = (message: AstroBuildDone | AstroWarmUpDone) => {
          if (message.type !== 'warm') return;
          child.off('exit', onExit);
          child.off('message', onMessage);
          resolve(message.ok);
        };
        const onExit = () => {
          child.off('message', onMessage);
          resolve(false);
        };
        child.on('message', onMessage);
        child.once('exit', onExit);
      });
      ready = { child, envKey, idleTimer, warmedUp };
      const warmUp: WarmUpJob = { type: 'warm-up', siteDir: WARM_UP_SITE, workDir: `${workDir}-${crypto.randomBytes(4).toString('hex')}` };
      // The process removes its copy after the warm-up; one killed during it (a build's end, the server's) cannot.
      child.once('exit', () => fs.rmSync(warmUp.workDir, { recursive: true, force: true }));
      child.send(warmUp, (error) => {
        // The process could not be reached: the next build starts its own.
        if (error && ready?.child === child) discardReady();
      });
      return warmedUp;
    },
    close() {
      discardReady();
      discardRenderer();
    },
  };
}
