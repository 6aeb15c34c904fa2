// Fills the markdown cache (common/markdown/cache.ts) for a full build on worker threads, while Astro starts
// and bundles on its own thread; the build's pages wait for it (page-generation.ts) and then read every body
// from the cache (docs/decisions/0052-markdown-prerender.md). Runs inside the Astro build process
// (astro-build-process.ts). Without it a build with an empty cache (the first on a new server, the first
// after any dependency update) renders every body one at a time on the build's thread: ~7 ms each, 30 s at
// 5,000 posts.
//
// Nothing here can fail a build: a worker that throws, crashes or runs out of memory only leaves its bodies
// missing, and the build renders what is missing itself, as it always did. Entries appear whole or not at
// all (cache.ts writes then renames).
import { fork } from 'node:child_process';
import os from 'node:os';
import { Worker } from 'node:worker_threads';

export interface PrerenderWorkerData {
  contentDir: string;
  cacheDir: string;
  /** The index of the next body to take, shared by every worker (one Int32 on a SharedArrayBuffer). */
  next: Int32Array;
  /** This worker counts the missing bodies first (the first one started). */
  counts: boolean;
}

export type PrerenderWorkerMessage = { type: 'missing'; bodies: number; missing: number } | { type: 'done'; rendered: number };

export interface PrerenderSummary {
  /** Distinct bodies in the snapshot and how many the cache lacked, as the first worker counted them. */
  bodies: number;
  missing: number;
  /** Bodies the workers rendered into the cache. */
  rendered: number;
  threads: number;
  /** Workers that ended without finishing (an error, a crash, out of memory). */
  failed: number;
  ms: number;
}

/** The report in words, for the build's log and the server's: null when there was nothing to do. */
export function describePrerender(summary: PrerenderReport): string | null {
  if (summary.missing === 0 && summary.failed === 0) return null;
  const failed = summary.failed > 0 ? `, ${summary.failed} worker(s) failed (the build renders what they left)` : '';
  return `${summary.missing} of ${summary.bodies} markdown bodies not cached: ${summary.rendered} rendered on ${summary.threads} thread(s) in ${summary.ms} ms, peak ${Math.round(summary.peakRssBytes / 1048576)} MB${failed}`;
}

/** What the build process asks of the pre-render's process (markdown-prerender-process.ts). */
export interface PrerenderJob {
  contentDir: string;
  cacheDir: string;
  threads?: number;
  /** The worker's module file (tests start one that fails). */
  workerFile?: string;
}

/** The pre-render's summary with the peak resident memory of its process. */
export interface PrerenderReport extends PrerenderSummary {
  peakRssBytes: number;
}

export interface MarkdownPrerender<Summary extends PrerenderSummary = PrerenderSummary> {
  /** Settles when every worker has exited; never rejects. */
  done: Promise<Summary>;
  /** Ends the workers now (the build ended before its pages, e.g. it failed). */
  stop(): void;
}

/**
 * More threads than this cost memory (each loads the pipeline: ~40 MB, measured in 0052) for little: the
 * build's own thread and the machine's other work share the same cores.
 */
export const MAX_PRERENDER_THREADS = 4;
/** A worker is only worth its start and its memory for this many missing bodies (~0.35 s of rendering). */
const BODIES_PER_THREAD = 50;
/**
 * The heap of a worker is bounded: left to V8, a worker's young generation grew to ~200 MB on this 24 GB
 * machine. Not as tightly as the build process's (8 MB semi-spaces, BUILD_PROCESS_EXEC_ARGV), though: a body's
 * trees are still alive at most collections, so small semi-spaces copy them again and again. Two workers
 * rendering the bench's 1,706 bodies in this process (docs/decisions/0059-finalize-read-back.md, "Worker
 * heaps, measured"): 8 MB semi-spaces 7.7–9.3 s, the process peaking at 285–291 MB; 16 MB (a 48 MB young
 * generation) 6.4–7.1 s at 333–338 MB; 32 MB 6.5–6.9 s at 399–431 MB. A body that needs more than the old
 * space ends its worker, and the build (768 MB) renders it as before. The stack is smaller than the build
 * thread's (984 KB): a body that overflows it falls back in the worker and is left to the build
 * (prerenderMarkdown), and one that renders in the worker renders alike on the build's deeper stack.
 */
export const WORKER_LIMITS = { maxYoungGenerationSizeMb: 48, maxOldGenerationSizeMb: 512, stackSizeMb: 1 };
const WORKER_FILE = new URL('./markdown-prerender-worker.ts', import.meta.url);
const PROCESS_FILE = new URL('./markdown-prerender-process.ts', import.meta.url);
/**
 * No V8 heap flags for the process: they are the whole process's, and override the workers' own limits (with
 * `--max-semi-space-size=8 --max-old-space-size=128` here, as until 0059, every worker ran with 8 MB
 * semi-spaces and a 128 MB old space whatever WORKER_LIMITS said). Empty rather than left out: fork would pass on
 * the build process's own flags (BUILD_PROCESS_EXEC_ARGV). Its own thread only hands out work and allocates
 * little; V8 grows a heap only as it is used.
 */
const PROCESS_EXEC_ARGV: string[] = [];

/** One per core the machine gives this process, at most MAX_PRERENDER_THREADS. */
export function prerenderThreads(): number {
  return Math.min(os.availableParallelism(), MAX_PRERENDER_THREADS);
}

export function startMarkdownPrerender(options: {
  contentDir: string;
  cacheDir: string;
  threads?: number;
  /** The worker's module (tests start one that fails). */
  workerFile?: URL;
}): MarkdownPrerender {
  const started = performance.now();
  const threads = options.threads ?? prerenderThreads();
  const next = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  const summary: PrerenderSummary = { bodies: 0, missing: 0, rendered: 0, threads: 0, failed: 0, ms: 0 };
  const workers: Worker[] = [];
  const exits: Promise<void>[] = [];
  let stopped = false;

  const start = (counts: boolean): void => {
    const data: PrerenderWorkerData = { contentDir: options.contentDir, cacheDir: options.cacheDir, next, counts };
    const worker = new Worker(options.workerFile ?? WORKER_FILE, { workerData: data, resourceLimits: WORKER_LIMITS, stdout: true, stderr: true });
    // Its output is not the build's log: a worker's failure changes nothing the admin would read about.
    worker.stdout.resume();
    worker.stderr.resume();
    workers.push(worker);
    summary.threads++;
    let finished = false;
    worker.on('message', (message: PrerenderWorkerMessage) => {
      if (message.type === 'done') {
        finished = true;
        summary.rendered += message.rendered;
        return;
      }
      summary.bodies = message.bodies;
      summary.missing = message.missing;
      const more = Math.min(threads, Math.floor(message.missing / BODIES_PER_THREAD)) - 1;
      for (let i = 0; i < more && !stopped; i++) start(false);
    });
    // 'error' comes before 'exit' for an uncaught exception or ERR_WORKER_OUT_OF_MEMORY; 'exit' always comes.
    worker.on('error', () => {});
    exits.push(
      new Promise((resolve) =>
        worker.once('exit', () => {
          if (!finished) summary.failed++;
          resolve();
        }),
      ),
    );
  };

  if (threads >= 1) start(true);
  // The first worker starts any others before it exits (its message comes before its 'exit').
  const done = (async () => {
    for (let settled = 0; settled < exits.length; settled++) await exits[settled];
    summary.ms = Math.round(performance.now() - started);
    return summary;
  })();
  return {
    done,
    stop() {
      stopped = true;
      for (const worker of workers) void worker.terminate();
    },
  };
}

/**
 * Runs the pre-render in a process of its own (markdown-prerender-process.ts), so that all the memory its
 * threads took is given back when it ends, not kept by the build process. A process that cannot start or dies
 * settles `done` as failed: the build renders what is missing.
 */
export function forkMarkdownPrerender(job: PrerenderJob): MarkdownPrerender<PrerenderReport> {
  const started = performance.now();
  const child = fork(PROCESS_FILE, [], { execArgv: PROCESS_EXEC_ARGV, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  const done = new Promise<PrerenderReport>((resolve) => {
    let report: PrerenderReport | undefined;
    child.once('message', (message: PrerenderReport) => (report = message));
    const failed = (): PrerenderReport => ({
      bodies: 0,
      missing: 0,
      rendered: 0,
      threads: 0,
      failed: 1,
      ms: Math.round(performance.now() - started),
      peakRssBytes: 0,
    });
    child.once('error', () => resolve(report ?? failed()));
    child.once('exit', () => resolve(report ?? failed()));
  });
  child.send(job, (error) => {
    if (error) child.kill('SIGKILL');
  });
  return {
    done,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
