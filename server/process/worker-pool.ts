// The primary's side of the other serving processes (docs/decisions/0022-one-process-model.md): forks them
// with node:cluster, tells each its port and the live build, waits until every one serves a new build
// before a publish reports it live, starts a crashed one again after a growing delay, and stops them.
import { servingExecArgv } from './node-flags.ts';
import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import type { BackgroundJob } from '../context.ts';
import type { Logger } from '../log.ts';
import type { ProcessMetrics } from '../ops/metrics.ts';
import type { PrimaryMessage, ProcessMessage } from './messages.ts';

export interface WorkerPool {
  /**
   * Makes `dir` the build every process serves; resolves once each one serves it (or was replaced).
   * `reload`: `dir` is served already; read it again (its compressed forms were written since).
   */
  announce(dir: string, options?: { reload?: boolean }): Promise<void>;
  /**
   * Stops every process and starts none again: SIGTERM (each finishes its in-flight requests until `deadline`,
   * a Date.now() value, then cuts the rest and exits), SIGKILL for one still running a little after it.
   */
  stop(deadline: number): Promise<void>;
  /** Process ids of the running processes. */
  pids(): number[];
  /** The registries of the processes that answer within the time limit (a stuck or dying one is left out). */
  collectMetrics(): Promise<ProcessMetrics[]>;
}

export interface WorkerPoolOptions {
  count: number;
  port: number;
  /** The environment the processes read their configuration from: the primary's own, so both agree. */
  env: Record<string, string | undefined>;
  /** The build live when the pool starts, if any. */
  liveDir: string | null;
  log: Logger;
  /** A write in a process needs a build (server/publish/shared-publisher.ts). */
  onPublishRequest: (reason: string) => void;
  /** A process queued work for one of the primary's background jobs (AppContext.wake). */
  onWake: (job: BackgroundJob) => void;
  /** A scrape reached a process: every process's metrics, joined (server/ops/metrics-aggregate.ts). */
  aggregateMetrics: () => Promise<string>;
}

/** Every process runs the server's own entry point; cluster.isWorker sends it down the process's path. */
const ENTRY = path.join(import.meta.dirname, '..', 'index.ts');
/** A process that has not loaded a new build by then is replaced, so it cannot go on serving the old one. */
const LOAD_TIMEOUT_MS = 60_000;
/** A process still running this long after the stop deadline is killed (it exits on its own 2 s after it). */
const KILL_AFTER_DEADLINE_MS = 4_000;
const FIRST_RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** A process that ran this long before it died is started again after the shortest delay. */
const STABLE_AFTER_MS = 60_000;
/** A scrape waits this long for the processes' registries, then answers with those that came. */
const METRICS_TIMEOUT_MS = 2_000;

interface Slot {
  index: number;
  worker: Worker | null;
  startedAt: number;
  /** Consecutive short-lived runs, for the restart delay. */
  failures: number;
  restartTimer: NodeJS.Timeout | null;
  ready: boolean;
  loadedGeneration: number;
}

export function startWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const { log } = options;
  let liveDir = options.liveDir;
  let generation = 0;
  let stopping = false;
  /** Re-checked after every message and exit: the announcements waiting for processes. */
  const waiters = new Set<() => void>();
  const notify = () => {
    for (const check of [...waiters]) check();
  };
  /** Scrapes waiting for the processes' registries, by request id. */
  const metricsRequests = new Map<number, (metrics: ProcessMetrics) => void>();
  let lastMetricsRequest = 0;
  const slots: Slot[] = Array.from({ length: options.count }, (_, i) => ({
    index: i + 1,
    worker: null,
    startedAt: 0,
    failures: 0,
    restartTimer: null,
    ready: false,
    loadedGeneration: -1,
  }));

  // Node options the server was started with (memory limits…) apply to every process; a debugger port cannot.
  cluster.setupPrimary({ exec: ENTRY, args: [], execArgv: servingExecArgv(process.execArgv) });

  const send = (worker: Worker, message: PrimaryMessage) => {
    // A process that is exiting cannot take it; its exit handler takes care of what follows.
    if (worker.isConnected()) worker.send(message, () => {});
  };

  function spawn(slot: Slot): void {
    const worker = cluster.fork(options.env);
    Object.assign(slot, { worker, startedAt: Date.now(), ready: false, loadedGeneration: -1 });
    worker.on('message', (message: ProcessMessage) => {
      if (message.type === 'ready') {
        slot.ready = true;
        send(worker, { type: 'start', index: slot.index, port: options.port });
        send(worker, { type: 'site-live', dir: liveDir, generation });
      } else if (message.type === 'site-loaded') {
        slot.loadedGeneration = message.generation;
        notify();
      } else if (message.type === 'listening') {
        log.info(`worker ${slot.index} (pid ${worker.process.pid}) serving on port ${options.port}`);
      } else if (message.type === 'publish') {
        options.onPublishRequest(message.reason);
      } else if (message.type === 'wake') {
        options.onWake(message.job);
      } else if (message.type === 'metrics') {
        metricsRequests.get(message.id)?.(message.metrics);
      } else if (message.type === 'metrics-wanted') {
        options.aggregateMetrics().then(
          (text) => send(worker, { type: 'metrics-text', id: message.id, text }),
          (error: unknown) => {
            log.error('metrics could not be joined', error);
            send(worker, { type: 'metrics-text', id: message.id, text: null });
          },
        );
      }
    });
    worker.on('error', (error) => log.error(`worker ${slot.index}: ${error.message}`));
    worker.on('exit', (code, signal) => {
      if (slot.worker === worker) slot.worker = null;
      notify();
      if (stopping) return;
      slot.failures = Date.now() - slot.startedAt >= STABLE_AFTER_MS ? 1 : slot.failures + 1;
      const delay = Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (slot.failures - 1));
      log.error(`worker ${slot.index} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}); starting it again in ${delay} ms`);
      slot.restartTimer = setTimeout(() => {
        slot.restartTimer = null;
        if (!stopping) spawn(slot);
      }, delay);
    });
  }

  for (const slot of slots) spawn(slot);

  return {
    async announce(dir, { reload = false } = {}) {
      liveDir = dir;
      generation += 1;
      const wanted = generation;
      // Processes not ready yet receive the new build when they are (the 'ready' handler above).
      const targets = slots.flatMap((slot) => (slot.worker && slot.ready ? [{ slot, worker: slot.worker }] : []));
      for (const { worker } of targets) send(worker, { type: 'site-live', dir, generation: wanted, ...(reload ? { reload } : {}) });
      const behind = () => targets.filter(({ slot, worker }) => slot.worker === worker && slot.loadedGeneration < wanted);
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
          for (const { slot, worker } of behind()) {
            log.error(`worker ${slot.index} (pid ${worker.process.pid}) did not load ${dir} within ${LOAD_TIMEOUT_MS / 1000} s; replacing it`);
            worker.process.kill('SIGKILL');
          }
          finish();
        }, LOAD_TIMEOUT_MS);
        waiters.add(check);
        check();
      });
    },

    async stop(deadline) {
      stopping = true;
      for (const slot of slots) if (slot.restartTimer) clearTimeout(slot.restartTimer);
      await Promise.all(slots.map((slot) => (slot.worker ? stopWorker(slot.worker, deadline + KILL_AFTER_DEADLINE_MS, log) : undefined)));
    },

    pids: () => slots.flatMap((slot) => (slot.worker?.process.pid ? [slot.worker.process.pid] : [])),

    collectMetrics() {
      const targets = slots.flatMap((slot) => (slot.worker?.isConnected() && slot.ready ? [slot.worker] : []));
      const id = ++lastMetricsRequest;
      const answers: ProcessMetrics[] = [];
      return new Promise((resolve) => {
        if (targets.length === 0) return resolve(answers);
        const finish = () => {
          clearTimeout(timer);
          metricsRequests.delete(id);
          resolve(answers);
        };
        const timer = setTimeout(finish, METRICS_TIMEOUT_MS);
        metricsRequests.set(id, (metrics) => {
          answers.push(metrics);
          if (answers.length === targets.length) finish();
        });
        for (const worker of targets) send(worker, { type: 'metrics-request', id });
      });
    },
  };
}

function stopWorker(worker: Worker, killAt: number, log: Logger): Promise<void> {
  const child = worker.process;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => {
        log.warn(`worker (pid ${child.pid}) did not stop after the deadline; killing it`);
        child.kill('SIGKILL');
      },
      Math.max(0, killAt - Date.now()),
    );
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
