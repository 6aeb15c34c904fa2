// Starts the real product (`node server/index.ts`) for the bench, in its own process group so the build
// children go with it, and samples the memory of its build processes (the Astro build process, Pagefind).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../..');

export interface ProductProcess {
  base: string;
  pid: number;
  log(): string;
  stop(): Promise<void>;
}

/** Spawns a node script of the project in its own process group; resolves once `ready(base)` is true. */
export async function startNodeProcess(
  script: string,
  options: {
    args?: string[];
    nodeArgs?: readonly string[];
    env: Record<string, string>;
    port: number;
    ready: (base: string) => Promise<boolean>;
    timeoutMs: number;
  },
): Promise<ProductProcess> {
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), script, ...(options.args ?? [])], {
    cwd: PROJECT_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${options.port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
      const forced = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(forced);
    }
  };
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}:\n${output}`);
    if (await options.ready(base).catch(() => false)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${script} was not ready within ${options.timeoutMs / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { base, pid: child.pid ?? 0, log: () => output, stop };
}

function childrenOf(pid: number): number[] {
  const result: number[] = [];
  try {
    // Each thread lists the children it forked; reading these few files is far cheaper than all of /proc.
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const list = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (list) result.push(...list.split(' ').map(Number));
    }
  } catch {
    // The process ended while we looked.
  }
  return result;
}

/** Every live descendant of `pid` (not `pid` itself). */
function descendantsOf(pid: number): number[] {
  const result: number[] = [];
  const walk = (id: number) => {
    for (const child of childrenOf(id)) {
      result.push(child);
      walk(child);
    }
  };
  walk(pid);
  return result;
}

/** A memory figure of a process's /proc status (VmHWM, VmRSS), in bytes; null when the process is gone. */
function statusBytes(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const value = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return value?.[1] ? Number(value[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** A process's peak resident memory (VmHWM) since it started or since its mark was last reset. */
const highWaterMark = (pid: number) => statusBytes(pid, 'VmHWM');

/** Sets a process's VmHWM back to its resident memory now (Linux ≥ 4.0, the process's own user). */
function resetHighWaterMark(pid: number): void {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Gone, or not allowed: its mark then keeps its whole life, which can only overstate.
  }
}

/** A process's resident memory now (VmRSS). */
const residentMemory = (pid: number) => statusBytes(pid, 'VmRSS');

/** Resident memory now (VmRSS) of `pid` and of its serving processes (the web workers), in bytes; Linux /proc only. */
export function servingRss(pid: number): number {
  let total = residentMemory(pid) ?? 0;
  for (const child of childrenOf(pid)) if (isServingProcess(child)) total += residentMemory(child) ?? 0;
  return total;
}

/** The other serving processes run the server's own entry point (docs/decisions/0022-one-process-model.md). */
function isServingProcess(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('server/index.ts');
  } catch {
    return false;
  }
}

/** The build processes under `pid`: everything it spawned but its other serving processes (the Astro build process, esbuild's service, Pagefind). */
function buildProcesses(pid: number, workers: Set<number>): number[] {
  return descendantsOf(pid).filter((child) => {
    if (workers.has(child)) return false;
    if (!isServingProcess(child)) return true;
    workers.add(child);
    return false;
  });
}

/** Resident memory now (VmRSS) of the build processes under `pid`: between publishes, the one made ready for the next. */
export function buildProcessesRss(pid: number): number {
  return buildProcesses(pid, new Set()).reduce((sum, child) => sum + (residentMemory(child) ?? 0), 0);
}

/**
 * Samples the build processes under `pid` every `everyMs` until stopped, and returns an upper bound of
 * the peak of the sum of their resident memory during that time: what the machine needs for a publish.
 *
 * A process that was already running at the start (the Astro build process made ready before the save) has
 * its high-water mark reset then and at every sample, so each sample adds its peak over the last interval
 * only: its warm-up does not count, and its peak is not added to Pagefind's, which runs after it
 * (docs/decisions/0034-lean-publishing.md). A process started during the sampling (Pagefind, a build process
 * started for this build) is never reset: its mark covers its whole life, all of it inside the publish.
 * Summing marks can only overstate within an interval; a peak in the last interval of a process that exits
 * before the next sample is missed, hence the short interval (and the bench also takes the peak the Astro
 * build process reports of itself, measurePublish in bench/run.ts).
 */
export function samplePeakChildMemory(pid: number, everyMs = 50): { stop(): number } {
  const workers = new Set<number>();
  const startedBefore = new Set(buildProcesses(pid, workers));
  for (const child of startedBefore) resetHighWaterMark(child);
  let peak = 0;
  const sample = () => {
    let total = 0;
    for (const child of buildProcesses(pid, workers)) {
      const mark = highWaterMark(child);
      if (mark === null) continue;
      total += mark;
      if (startedBefore.has(child)) resetHighWaterMark(child);
    }
    if (total > peak) peak = total;
  };
  const timer = setInterval(sample, everyMs);
  sample();
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/**
 * Proportional set size (PSS, from /proc/<pid>/smaps_rollup) of `pid`: its private pages plus its share of
 * every page it shares (the node binary, libraries, forked memory), so summing PSS over processes counts
 * each shared page once, unlike summing RSS. Null when the process is gone.
 */
export function pssBytes(pid: number): number | null {
  try {
    const value = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return value?.[1] ? Number(value[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** PSS summed over `pid` and every process under it (the serving processes and any build process), in bytes. */
export function processTreePss(pid: number): { bytes: number; processes: number } {
  const pids = [pid, ...descendantsOf(pid)];
  let bytes = 0;
  let processes = 0;
  for (const id of pids) {
    const pss = pssBytes(id);
    if (pss === null) continue;
    bytes += pss;
    processes++;
  }
  return { bytes, processes };
}
