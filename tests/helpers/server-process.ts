// The real product process (`node server/index.ts`) on a free port, for the fault drills: started in its own
// process group so a SIGKILL of the group also takes the Astro build children the publisher spawns, and a
// browser-like client over fetch logged in as the admin (with a solved bot challenge, as a browser would).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort, login, type ApiClient } from './fetch-client.ts';

export { freePort } from './fetch-client.ts';

const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');
export const DRILL_ADMIN_EMAIL = 'drill-admin@example.com';
const DRILL_ADMIN_PASSWORD = 'drill password 1234';

const running = new Set<ServerProcess>();

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  output: () => string;
  /** True while the server process has neither exited nor been killed. */
  alive: () => boolean;
  /** Resolves with the exit code (null when killed by a signal) once the process is gone. */
  exited: Promise<number | null>;
  /** SIGKILL of the server's whole process group; resolves when the server process is gone. */
  kill: () => Promise<void>;
}

/** SIGKILLs every server these helpers started and that still runs (for afterEach/afterAll). */
export async function killAllServers(): Promise<void> {
  await Promise.all([...running].map((server) => server.kill()));
}

/**
 * Starts the server on `dataDir` (content in `<dataDir>/content`, which must exist) and resolves once it
 * answers. No build at start, no demo content, one admin; `env` adds or overrides variables.
 */
export async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = launchServer(dataDir, await freePort(), env);
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (server.child.exitCode !== null) throw new Error(`server exited with ${server.child.exitCode}:\n${server.output()}`);
    try {
      const response = await fetch(`${server.base}/sanctum/csrf-cookie`);
      if (response.status === 204) return server;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`server did not answer within 20 s:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Spawns the server on `port` without waiting for it (startServer waits until it answers). */
export function launchServer(dataDir: string, port: number, env: Record<string, string> = {}): ServerProcess {
  const child = spawn(process.execPath, ['server/index.ts'], {
    cwd: PROJECT_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      CONTENT_DIR: path.join(dataDir, 'content'),
      WEB_WORKERS: '0',
      BUILD_ON_START: 'false',
      SEED_DEMO: 'false',
      ADMIN_EMAIL: DRILL_ADMIN_EMAIL,
      ADMIN_PASSWORD: DRILL_ADMIN_PASSWORD,
      BOTCHECK_COST: '1',
      LOG_LEVEL: 'warn',
      ...env,
      PORT: String(port),
    },
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const server: ServerProcess = {
    base: `http://127.0.0.1:${port}`,
    child,
    output: () => log,
    alive,
    exited,
    kill: async () => {
      running.delete(server);
      if (alive() && child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      }
      await exited;
    },
  };
  running.add(server);
  return server;
}

/** A browser-like client over fetch with a cookie jar (fetch-client.ts). */
export type HttpClient = ApiClient;

/** The drills' admin, logged in with a solved bot challenge. */
export function loginAdmin(base: string): Promise<HttpClient> {
  return login(base, DRILL_ADMIN_EMAIL, DRILL_ADMIN_PASSWORD);
}
