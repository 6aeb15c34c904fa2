// Runs the static build of one publish in child processes: `astro build` into the build's fresh output
// directory, in a warm build process kept between publishes (warm-astro.ts), then Pagefind over the
// result (the search index is part of every publish, docs/engineering.md#speed-notes).
// The publisher only sees the BuildRunner type, so tests can swap in a fake with controllable timing.
import { spawn } from 'node:child_process';
import type { Logger } from '../log.ts';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config } from '../env.ts';
import { appendToBuildLog } from './build-log.ts';
import { DEPENDENCY_INPUTS, hashProjectFiles } from './code-version.ts';
import { describePrerender } from './markdown-prerender.ts';
import { createWarmAstro } from './warm-astro.ts';

export interface BuildJob {
  id: string;
  /** Fresh, empty directory the site is written into. */
  outDir: string;
  /** Directory holding this build's snapshot (site.json), handed to Astro as CONTENT_DIR. */
  contentDir: string;
  config: Pick<Config, 'projectRoot' | 'dataDir' | 'siteUrl' | 'siteName'>;
  /** Leave the search index to indexSearch() after the build is live (default: index before, as part of the build). */
  searchLater?: boolean;
}

/** An incremental publish: render `paths` into outDir, a hard-linked copy of the live build (0044). */
export interface RenderJob {
  id: string;
  outDir: string;
  contentDir: string;
  paths: string[];
  config: BuildJob['config'];
}

export interface BuildResult {
  ok: boolean;
  /** Everything the build printed (stdout and stderr interleaved), for the admin's failure report. */
  log: string;
  /** Peak resident memory of the Astro build process, when it reported one (a metric, server/ops/metrics.ts). */
  peakRssBytes?: number;
  /** V8's heap limit in the Astro build process, when it reported one (warm-astro.ts, BUILD_PROCESS_EXEC_ARGV). */
  heapLimitBytes?: number;
  /** Every route's pathname in the build, when the runner kept it for incremental publishes. */
  paths?: string[];
  /** An incremental render: the files it wrote and removed, relative to the build directory. */
  written?: string[];
  removed?: string[];
}

export interface BuildRunner {
  (job: BuildJob): Promise<BuildResult>;
  /**
   * The publisher has nothing more to build: get ready for the next build now, while the machine is idle
   * (the Astro runner starts and warms up its next build process, warm-astro.ts). Resolves true once it is
   * warmed up; never rejects. Fakes need not have it.
   */
  prepare?: (config: BuildJob['config']) => Promise<boolean>;
  /** True when a kept full build can render this config's next publish incrementally (0044). */
  canRender?: (config: BuildJob['config']) => boolean;
  /** Renders only the given routes with the kept build; resolves ok false (never rejects) when it cannot. */
  render?: (job: RenderJob) => Promise<BuildResult>;
  /**
   * Builds the search index of a finished build directory (Pagefind). `signal` ends it early (a change arrived:
   * its publish goes first, the index is made again after it); it then resolves ok false.
   */
  indexSearch?: (buildDir: string, config: BuildJob['config'], signal?: AbortSignal) => Promise<BuildResult>;
}

export interface AstroBuildRunnerOptions {
  /** Build the Pagefind search index after Astro (default true). */
  pagefind?: boolean;
  /** Keep each full build's bundle loaded to render later publishes incrementally (default true, 0044). */
  incremental?: boolean;
  /** A build that hangs must not block every later publish (default 10 minutes). */
  timeoutMs?: number;
  /** Where the time of each step goes (debug level). */
  log?: Logger;
  /** The markdown pre-render of a full build, when not its defaults (tests; docs/decisions/0052-markdown-prerender.md). */
  prerender?: { threads?: number; workerFile?: string };
}

export function createAstroBuildRunner(options: AstroBuildRunnerOptions = {}): BuildRunner {
  const { pagefind = true, incremental = true, timeoutMs = 10 * 60_000 } = options;
  const warm = createWarmAstro();
  const run = async (job: BuildJob): Promise<BuildResult> => {
    const { projectRoot } = job.config;
    const workDir = buildWorkDir(projectRoot, `${job.id}-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
    fs.mkdirSync(workDir, { recursive: true });
    const env = buildChildEnv(job);
    let log = '';
    try {
      const astroStarted = performance.now();
      // CONTENT_DIR differs per build: the build process takes it with its job, not from its environment.
      const astro = await warm.build(
        { id: job.id, root: projectRoot, outDir: job.outDir, workDir, contentDir: job.contentDir, keep: incremental, prerender: options.prerender },
        { env, timeoutMs },
      );
      log += astro.log;
      options.log?.debug(`publish ${job.id}: astro build ${astro.ok ? 'done' : 'failed'} in ${Math.round(performance.now() - astroStarted)} ms`);
      // A cold build's markdown (a new server, or the first build after a dependency update) is worth a line.
      const markdown = astro.markdown ? describePrerender(astro.markdown) : null;
      if (markdown) options.log?.info(`publish ${job.id}: ${markdown}`);
      const { peakRssBytes, heapLimitBytes } = astro;
      const paths = astro.paths ? { paths: astro.paths } : {};
      if (!astro.ok || !pagefind || job.searchLater) return { ok: astro.ok, log, peakRssBytes, heapLimitBytes, ...paths };
      const pagefindStarted = performance.now();
      // KaTeX's rendered spans and MathML presentation carry data-pagefind-ignore, so each formula is indexed
      // once, as its TeX source (common/markdown/search-hints.ts, docs/decisions/0030-search-indexes-tex.md).
      const index = await runChild(await pagefindBinary(projectRoot), ['--site', job.outDir], { cwd: workDir, env, timeoutMs });
      log += index.log;
      options.log?.debug(`publish ${job.id}: pagefind ${index.ok ? 'done' : 'failed'} in ${Math.round(performance.now() - pagefindStarted)} ms`);
      return { ok: index.ok, log, peakRssBytes, heapLimitBytes, ...paths };
    } finally {
      // A kept build imports its bundle from <workDir>/.astro/.prerender lazily (a page's module on its first
      // render): the renderer's working directory stays until it is replaced (removeStaleWorkDirs).
      if (!(incremental && warm.canRender(env))) fs.rmSync(workDir, { recursive: true, force: true });
      else removeStaleWorkDirs(projectRoot, workDir);
    }
  };
  const render = async (job: RenderJob): Promise<BuildResult> => {
    const rendered = await warm.render({ id: job.id, outDir: job.outDir, contentDir: job.contentDir, paths: job.paths }, { timeoutMs });
    options.log?.debug(`publish ${job.id}: rendered ${rendered.written.length} file(s) in ${rendered.ms ?? '?'} ms`);
    return { ok: rendered.ok, log: rendered.log, written: rendered.written, removed: rendered.removed, peakRssBytes: rendered.peakRssBytes };
  };
  const indexSearch = async (buildDir: string, config: BuildJob['config'], signal?: AbortSignal): Promise<BuildResult> => {
    const workDir = buildWorkDir(config.projectRoot, `search-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
    fs.mkdirSync(workDir, { recursive: true });
    try {
      return await runChild(await pagefindBinary(config.projectRoot), ['--site', buildDir], {
        cwd: workDir,
        env: buildChildEnv({ config }),
        timeoutMs,
        signal,
      });
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  };
  const canRender = (config: BuildJob['config']) => incremental && warm.canRender(buildChildEnv({ config }));
  // Not during a publish: loading Astro beside Pagefind and the switch slowed both (measured in 0036).
  const prepare = (config: BuildJob['config']) =>
    warm.prepare({ env: buildChildEnv({ config }), workDir: buildWorkDir(config.projectRoot, `warm-up-${process.pid}`) });
  return Object.assign(run, { prepare, canRender, render, indexSearch });
}

/** Working directories of builds whose renderer has gone (only the newest kept build's is still in use). */
function removeStaleWorkDirs(projectRoot: string, keep: string): void {
  const parent = path.dirname(keep);
  const own = `-${process.pid}-`;
  for (const name of fs.readdirSync(parent)) {
    const dir = path.join(parent, name);
    if (dir !== keep && name.includes(own) && !name.startsWith('warm-up-') && !name.startsWith('search-')) fs.rmSync(dir, { recursive: true, force: true });
  }
  void projectRoot;
}

/**
 * Astro writes its prerender chunks to `<cwd>/.astro/.prerender` when outDir lies outside the cwd, and those
 * chunks import packages by bare name. A private cwd inside the project keeps concurrent builds (test files
 * in parallel) apart while node_modules still resolves from it; the systemd unit lets the server write there.
 */
function buildWorkDir(projectRoot: string, name: string): string {
  return path.join(projectRoot, 'node_modules', '.cache', 'site-publish', name);
}

/**
 * The build gets a small, explicit environment rather than ours: no secrets (SMTP_URL, ADMIN_PASSWORD, …)
 * reach project code it runs, and a NODE_ENV such as Vitest's `test` cannot change how React is bundled.
 */
export function buildChildEnv(job: Pick<BuildJob, 'config'>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'LC_ALL', 'TZ']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return {
    ...env,
    SITE_URL: job.config.siteUrl,
    SITE_NAME: job.config.siteName,
    ASTRO_TELEMETRY_DISABLED: '1',
    // One cache per data directory: builds of one publisher run one at a time, so they may share it.
    ASTRO_CACHE_DIR: path.join(job.config.dataDir, 'cache', 'astro'),
    MARKDOWN_CACHE_DIR: path.join(job.config.dataDir, 'cache', 'markdown', markdownPipelineFingerprint(job.config.projectRoot)),
    NO_COLOR: '1',
    // Astro, Vite and Rolldown are a large module graph, and the markdown pipeline is loaded by every thread of
    // the pre-render: compiled once and cached, each publish starts faster. The serving processes' cache, which
    // server/index.ts puts beside the installation, so that even the first build of a new DATA_DIR has it; the
    // data directory's own when the server was not started through that entry (tests run builds in process).
    NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE || path.join(job.config.dataDir, 'cache', 'node-compile'),
    // Rolldown and the Astro compiler allocate through mimalloc, which by default commits whole arenas up
    // front and gives freed memory back to the system only after a delay: without either, measured, the
    // publish's peak fell by about 120 MB and then by 80–220 MB more at 1,000 and 5,000 posts, in the same
    // time as without under the same load (docs/decisions/0034-lean-publishing.md).
    MIMALLOC_ARENA_EAGER_COMMIT: '0',
    MIMALLOC_PURGE_DELAY: '0',
  };
}

let pagefindPath: { root: string; value: string } | undefined;

/**
 * The Pagefind executable itself, found as its npm wrapper (`pagefind/lib/runner/bin.cjs`) finds it. The
 * wrapper is a whole Node process (about 50 MB resident) that only waits for the executable; running the
 * executable directly takes that off every publish's peak (docs/decisions/0034-lean-publishing.md).
 */
async function pagefindBinary(projectRoot: string): Promise<string> {
  if (pagefindPath?.root === projectRoot) return pagefindPath.value;
  const resolver = pathToFileURL(path.join(projectRoot, 'node_modules', 'pagefind', 'lib', 'resolveBinary.js')).href;
  const { resolveBinaryPath } = (await import(resolver)) as { resolveBinaryPath: (names: string[]) => string };
  pagefindPath = { root: projectRoot, value: resolveBinaryPath(['pagefind_extended', 'pagefind']) };
  return pagefindPath.value;
}

let fingerprint: { root: string; value: string } | undefined;

/**
 * Names the markdown cache after the code that renders it: the pipeline's sources and the installed
 * dependencies (the locked versions and their patches). Any change to these starts a fresh cache, so a
 * cached body can never show stale rendering.
 */
export function markdownPipelineFingerprint(projectRoot: string): string {
  if (fingerprint?.root === projectRoot) return fingerprint.value;
  // The pipeline moved to common/ (run by server/ and src/ alike, docs/architecture.md#layers).
  fingerprint = { root: projectRoot, value: hashProjectFiles(projectRoot, ['common/markdown', ...DEPENDENCY_INPUTS]).slice(0, 16) };
  return fingerprint.value;
}

function runChild(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; signal?: AbortSignal },
): Promise<BuildResult> {
  return new Promise((resolve) => {
    if (options.signal?.aborted) return resolve({ ok: false, log: `$ ${path.basename(command)}: not started, superseded\n` });
    let log = `$ ${path.basename(command)} ${args.join(' ')}\n`;
    const append = (chunk: Buffer | string) => (log = appendToBuildLog(log, chunk));
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', append);
    child.stderr.on('data', append);
    const timer = setTimeout(() => {
      append(`\n[publish] build exceeded ${options.timeoutMs} ms and was stopped\n`);
      child.kill('SIGKILL');
    }, options.timeoutMs);
    // A server stopping past its deadline abandons the build (docs/decisions/0033-graceful-stop.md): the
    // child must not outlive it and go on writing into the abandoned build directory.
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    const supersede = () => {
      append('\n[publish] stopped: superseded by a newer publish\n');
      child.kill('SIGKILL');
    };
    options.signal?.addEventListener('abort', supersede, { once: true });
    let settled = false;
    const settle = (ok: boolean, note?: string) => {
      if (settled) return;
      settled = true;
      process.off('exit', killOnExit);
      options.signal?.removeEventListener('abort', supersede);
      clearTimeout(timer);
      if (note) append(note);
      resolve({ ok, log });
    };
    // A child that cannot start emits 'error' and not always 'close'.
    child.on('error', (error) => settle(false, `\n[publish] could not run the build: ${error.message}\n`));
    child.on('close', (code, signal) =>
      settle(code === 0, code === 0 ? undefined : `\n[publish] exited with ${signal ? `signal ${signal}` : `code ${code}`}\n`),
    );
  });
}
