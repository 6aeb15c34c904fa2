// Keeps one Astro build process warm between publishes (docs/decisions/0020-warm-astro-builds.md): forks
// astro-build-process.ts on the first build, sends it one build at a time, collects what it prints as the
// build's log, and replaces it when it failed, hung, grew too large, built enough times, or sat idle.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { appendToBuildLog } from './build-log.ts';

export interface AstroBuildJob {
  id: string;
  root: string;
  outDir: string;
  /** The build's own working directory (see astro-build-process.ts). */
  workDir: string;
  /** The snapshot directory, CONTENT_DIR for this build. */
  contentDir: string;
}

export interface AstroBuildDone {
  type: 'done';
  id: string;
  ok: boolean;
  rssBytes: number;
  /** The process's peak resident memory so far (the metric site_publish_build_peak_rss_bytes). */
  peakRssBytes: number;
  /** The JavaScript heap still in use after the build and a full GC: what earlier builds left behind. */
  heapUsedBytes: number;
  /** V8's heap limit in the process (set by BUILD_PROCESS_EXEC_ARGV). */
  heapLimitBytes: number;
}

export interface WarmAstroOptions {
  /** The process's environment; CONTENT_DIR is set per build. A different one starts a new process. */
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

const ENTRY = path.join(import.meta.dirname, 'astro-build-process.ts');
/**
 * V8's limits for the build process (docs/decisions/0034-lean-publishing.md). Left alone, V8 grows the heap
 * towards its default limit (a quarter of the machine's memory) and collects seldom; the native memory of
 * Rolldown and the Astro compiler is released only when the JavaScript objects holding it are collected,
 * so a seldom-collected heap also keeps hundreds of MB of native memory. A 768 MB old space (a 5,000-post
 * build keeps about 230 MB live) and 8 MB semi-spaces cut the publish's peak by about a third at 1,000 and
 * 5,000 posts in no more time; 512 MB saved little more and cost ~18% of the time at 5,000, 320 MB thrashed.
 * --expose-gc lets the process collect after each build.
 */
export const BUILD_PROCESS_EXEC_ARGV = ['--max-old-space-size=768', '--max-semi-space-size=8', '--expose-gc'];
/**
 * Each build's server bundle stays in the process's module cache (about 100 MB on a 1,000-post site):
 * after this many builds, or past MAX_RSS_BYTES, the next publish gets a fresh process.
 */
const MAX_BUILDS_PER_PROCESS = 6;
const MAX_RSS_BYTES = 1.2 * 1024 ** 3;
/**
 * Heap left after a build and a full GC (the modules of earlier builds, never freed): past this the next
 * build would work close to the 768 MB limit (slow, constant collection, at worst out of memory), so the
 * next publish gets a fresh process.
 */
const MAX_HEAP_AFTER_BUILD_BYTES = 480 * 1024 ** 2;
/** A warm process holds several hundred MB: it is let go when nobody has published for this long. */
const IDLE_MS = 10 * 60_000;

export interface WarmAstro {
  build(job: AstroBuildJob, options: WarmAstroOptions): Promise<{ ok: boolean; log: string; peakRssBytes?: number; heapLimitBytes?: number }>;
  /** Ends the warm process, if any (the server stopping; tests). */
  close(): void;
}

export function createWarmAstro(): WarmAstro {
  let child: ChildProcess | null = null;
  let childEnvKey = '';
  let builds = 0;
  let idleTimer: NodeJS.Timeout | null = null;
  let onOutput: ((chunk: Buffer) => void) | null = null;

  const retire = () => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    if (!child) return;
    const old = child;
    child = null;
    if (old.exitCode === null && old.signalCode === null) old.kill('SIGKILL');
  };

  const start = (env: NodeJS.ProcessEnv, key: string): ChildProcess => {
    const next = fork(ENTRY, [], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], execArgv: BUILD_PROCESS_EXEC_ARGV });
    next.stdout?.on('data', (chunk: Buffer) => onOutput?.(chunk));
    next.stderr?.on('data', (chunk: Buffer) => onOutput?.(chunk));
    next.on('exit', () => {
      if (child === next) child = null;
    });
    // Between builds the warm process must not keep the server (or a test run) alive.
    next.unref();
    next.channel?.unref();
    child = next;
    childEnvKey = key;
    builds = 0;
    return next;
  };

  return {
    build(job, options) {
      const key = JSON.stringify(options.env);
      if (child && childEnvKey !== key) retire();
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = null;
      const worker = child ?? start(options.env, key);
      let log = `$ astro build --root ${job.root} --outDir ${job.outDir} (warm process ${worker.pid}, build ${builds + 1})\n`;
      onOutput = (chunk) => (log = appendToBuildLog(log, chunk));
      worker.channel?.ref();
      return new Promise((resolve) => {
        let settled = false;
        let peakRssBytes: number | undefined;
        let heapLimitBytes: number | undefined;
        const settle = (ok: boolean, note?: string, keep = false) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          worker.off('message', onMessage);
          worker.off('exit', onExit);
          onOutput = null;
          if (note) log += note;
          if (keep && child === worker) {
            worker.channel?.unref();
            idleTimer = setTimeout(retire, IDLE_MS);
            idleTimer.unref();
          } else if (child === worker) {
            retire();
          }
          resolve({ ok, log, peakRssBytes, heapLimitBytes });
        };
        const onMessage = (message: AstroBuildDone) => {
          if (message.type !== 'done' || message.id !== job.id) return;
          builds += 1;
          peakRssBytes = message.peakRssBytes;
          heapLimitBytes = message.heapLimitBytes;
          // A failed build may leave Astro in any state: the next one starts clean.
          const keep = message.ok && builds < MAX_BUILDS_PER_PROCESS && message.rssBytes < MAX_RSS_BYTES && message.heapUsedBytes < MAX_HEAP_AFTER_BUILD_BYTES;
          // Its output may still be in the pipe: let it arrive before the log is handed over.
          setImmediate(() => settle(message.ok, message.ok ? undefined : '\n[publish] astro build failed\n', keep));
        };
        const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
          settle(false, `\n[publish] the build process exited with ${signal ? `signal ${signal}` : `code ${code}`}\n`);
        const timer = setTimeout(() => settle(false, `\n[publish] build exceeded ${options.timeoutMs} ms and was stopped\n`), options.timeoutMs);
        worker.on('message', onMessage);
        worker.on('exit', onExit);
        worker.send(job satisfies AstroBuildJob, (error) => {
          if (error) settle(false, `\n[publish] could not start the build: ${error.message}\n`);
        });
      });
    },
    close: retire,
  };
}
