// The main process's side of the static web workers (docs/decisions/0014-web-workers.md): starts them,
// tells them which build is live and waits until they serve it, starts a crashed one again after a
// growing delay, and stops them before the main process stops.
import { fork, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import type { Config } from './env.ts';
import type { Logger } from './log.ts';

/** What a worker needs to know, passed as its one argument (JSON): it reads no configuration itself. */
export interface WebWorkerStart {
  index: number;
  port: number;
  host: string;
  /** The main process's unix socket, where everything but static hits is forwarded. */
  socketPath: string;
  mediaDir: string;
  logLevel: Config['logLevel'];
  servedByHeader: boolean;
}

/** Main → worker. `dir` null: no build exists yet (the worker then forwards everything). */
export interface SiteLiveMessage {
  type: 'site-live';
  dir: string | null;
  generation: number;
}

/** Worker → main, with the socket as the message's handle: a connection for the main process to serve. */
export interface ConnectionMessage {
  type: 'connection';
  /** The bytes the worker already read from it (latin1: byte for byte). */
  head: string;
}

/** Worker → main: ready for messages; the build of a generation loaded; listening on the port; a connection. */
export type WorkerMessage = { type: 'ready' } | { type: 'site-loaded'; generation: number } | { type: 'listening' } | ConnectionMessage;

export interface WebWorkerPool {
  /** Makes `dir` the build every worker serves; resolves once each worker serves it (or was replaced). */
  announce(dir: string): Promise<void>;
  /** Stops every worker (SIGTERM, then SIGKILL after a few seconds) and starts none again. */
  stop(): Promise<void>;
  /** Process ids of the running workers. */
  pids(): number[];
}

export interface WebWorkerPoolOptions {
  count: number;
  start: Omit<WebWorkerStart, 'index'>;
  /** The build live when the pool starts, if any. */
  liveDir: string | null;
  log: Logger;
  /** Serves a connection a worker handed over (http/connection-handoff.ts). */
  onConnection: (socket: net.Socket, head: Buffer) => void;
}

const ENTRY = path.join(import.meta.dirname, 'web-worker.ts');
/** A worker that has not loaded a new build by then is replaced, so it cannot go on serving the old one. */
const LOAD_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 4_000;
const FIRST_RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker that ran this long before it died is started again after the shortest delay. */
const STABLE_AFTER_MS = 60_000;

interface Slot {
  index: number;
  child: ChildProcess | null;
  startedAt: number;
  /** Consecutive short-lived runs, for the restart delay. */
  failures: number;
  restartTimer: NodeJS.Timeout | null;
  ready: boolean;
  loadedGeneration: number;
}

export function startWebWorkers(options: WebWorkerPoolOptions): WebWorkerPool {
  const { start, log } = options;
  let liveDir = options.liveDir;
  let generation = 0;
  let stopping = false;
  /** Re-checked after every message and exit: the announcements waiting for workers. */
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const check of [...waiters]) check();
  };
  const slots: Slot[] = Array.from({ length: options.count }, (_, i) => ({
    index: i + 1,
    child: null,
    startedAt: 0,
    failures: 0,
    restartTimer: null,
    ready: false,
    loadedGeneration: -1,
  }));

  const send = (child: ChildProcess, message: SiteLiveMessage) => {
    // A worker that is exiting cannot take it; its exit handler takes care of what follows.
    if (child.connected) child.send(message, () => {});
  };

  function spawn(slot: Slot): void {
    const child = fork(ENTRY, [JSON.stringify({ ...start, index: slot.index } satisfies WebWorkerStart)], { execArgv: inheritedExecArgv() });
    Object.assign(slot, { child, startedAt: Date.now(), ready: false, loadedGeneration: -1 });
    child.on('message', (message: WorkerMessage, handle: unknown) => {
      if (message.type === 'connection') {
        if (handle instanceof net.Socket) options.onConnection(handle, Buffer.from(message.head, 'latin1'));
      } else if (message.type === 'ready') {
        slot.ready = true;
        send(child, { type: 'site-live', dir: liveDir, generation });
      } else if (message.type === 'site-loaded') {
        slot.loadedGeneration = message.generation;
        notify();
      } else if (message.type === 'listening') {
        log.info(`web worker ${slot.index} (pid ${child.pid}) serving on port ${start.port}`);
      }
    });
    child.on('error', (error) => log.error(`web worker ${slot.index}: ${error.message}`));
    child.on('exit', (code, signal) => {
      if (slot.child === child) slot.child = null;
      notify();
      if (stopping) return;
      slot.failures = Date.now() - slot.startedAt >= STABLE_AFTER_MS ? 1 : slot.failures + 1;
      const delay = Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (slot.failures - 1));
      log.error(`web worker ${slot.index} (pid ${child.pid}) exited (${signal ?? `code ${code}`}); starting it again in ${delay} ms`);
      slot.restartTimer = setTimeout(() => {
        slot.restartTimer = null;
        if (!stopping) spawn(slot);
      }, delay);
    });
  }

  for (const slot of slots) spawn(slot);

  return {
    async announce(dir) {
      liveDir = dir;
      generation += 1;
      const wanted = generation;
      // Workers not ready yet receive the new build when they are (the 'ready' handler above).
      const targets = slots.flatMap((slot) => (slot.child && slot.ready ? [{ slot, child: slot.child }] : []));
      for (const { child } of targets) send(child, { type: 'site-live', dir, generation: wanted });
      const behind = () => targets.filter(({ slot, child }) => slot.child === child && slot.loadedGeneration < wanted);
      await new Promise<void>((resolve) => {
        const finish = () => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const check = () => {
          if (behind().length === 0) finish();
        };
        const timer = setTimeout(() => {
          for (const { slot, child } of behind()) {
            log.error(`web worker ${slot.index} (pid ${child.pid}) did not load ${dir} within ${LOAD_TIMEOUT_MS / 1000} s; replacing it`);
            child.kill('SIGKILL');
          }
          finish();
        }, LOAD_TIMEOUT_MS);
        waiters.add(check);
        check();
      });
    },

    async stop() {
      stopping = true;
      for (const slot of slots) if (slot.restartTimer) clearTimeout(slot.restartTimer);
      await Promise.all(slots.map((slot) => (slot.child ? stopChild(slot.child) : undefined)));
    },

    pids: () => slots.flatMap((slot) => (slot.child?.pid ? [slot.child.pid] : [])),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Node options the server was started with (memory limits…) apply to workers too; a debugger port cannot. */
function inheritedExecArgv(): string[] {
  return process.execArgv.filter((arg) => !/^--(inspect|debug)/.test(arg));
}
