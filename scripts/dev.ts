// `npm run dev`: the API server (`node --watch server/index.ts`, restarted whenever a file it imports
// changes) and the site in Astro's dev server (hot reload), which passes /api, /sanctum and /media on to
// the API server (astro.config.mjs), so the islands work as on the real site. One terminal: each line is
// prefixed with the child it came from; Ctrl-C stops both, and so does either child ending on its own.
//
// The children get the caller's environment (server/env.ts reads it: PORT, DATA_DIR, …), plus:
// - SITE_URL defaulting to the dev server's address, so links in mails and the canonical URL of pages
//   point where the developer reads the site;
// - PORT for Astro too, which is where its proxy sends API calls;
// - NODE_ENV=development unless set, which makes the outbox log the links of each mail (server/env.ts);
// - no Astro telemetry.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import { ConfigError, loadConfig, type Config } from '../server/env.ts';

/** Astro's dev server port unless ASTRO_DEV_PORT says otherwise (astro.config.mjs reads the same). */
const DEFAULT_ASTRO_DEV_PORT = '4322';
/** The API server takes up to 8 s to stop (its in-flight requests and workers); past this, kill. */
const STOP_LIMIT_MS = 10_000;

const colors = { api: '\u001b[36m', site: '\u001b[35m' } as const;
type Name = keyof typeof colors;

function readConfig(env: NodeJS.ProcessEnv): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const astroDevPort = process.env.ASTRO_DEV_PORT || DEFAULT_ASTRO_DEV_PORT;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  ASTRO_DEV_PORT: astroDevPort,
  SITE_URL: process.env.SITE_URL || `http://localhost:${astroDevPort}`,
  NODE_ENV: process.env.NODE_ENV || 'development',
  // The machines here have no internet; publish builds turn it off for the same reason.
  ASTRO_TELEMETRY_DISABLED: process.env.ASTRO_TELEMETRY_DISABLED ?? '1',
};
// Checked here first, so a wrong setting stops both with one message instead of leaving the site running.
const config = readConfig(env);
env.PORT = String(config.port);
if (process.stdout.isTTY) env.FORCE_COLOR ??= '1';

const root = config.projectRoot;
const astroBin = path.join(path.dirname(createRequire(import.meta.url).resolve('astro/package.json')), 'bin/astro.mjs');

const children = new Map<Name, ChildProcess>();
let stopping = false;
let exitCode = 0;

function start(name: Name, args: string[]): void {
  // Its own process group, so that stopping reaches its children too (the server's workers, Astro's
  // helpers) and a Ctrl-C reaches it once, from here, instead of racing the terminal's own signal.
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.set(name, child);
  const label = process.stdout.isTTY ? `${colors[name]}[${name}]\u001b[0m ` : `[${name}] `;
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`${label}${line}\n`));
  }
  child.on('exit', (code, signal) => {
    children.delete(name);
    if (!stopping) {
      console.error(`[dev] ${name} ended (${signal ?? `exit code ${code}`}); stopping the other.`);
      exitCode = code || 1;
      stop();
    }
    if (children.size === 0) process.exit(exitCode);
  });
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

function stop(): void {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) signalGroup(child, 'SIGTERM');
  setTimeout(() => {
    for (const child of children.values()) signalGroup(child, 'SIGKILL');
  }, STOP_LIMIT_MS).unref();
}

process.on('SIGINT', stop);
process.on('SIGTERM', stop);
// Whatever ends this process, its children must not outlive it.
process.on('exit', () => {
  for (const child of children.values()) signalGroup(child, 'SIGKILL');
});

console.log(`[dev] API server on http://localhost:${config.port} (data in ${config.dataDir}), restarted on every change to its code`);
console.log(`[dev] site on ${env.SITE_URL} with hot reload; /api, /sanctum and /media go to the API server`);
start('api', ['--watch', '--watch-preserve-output', 'server/index.ts']);
start('site', [astroBin, 'dev', '--port', astroDevPort]);
