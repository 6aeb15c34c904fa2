// Starts the real product (`node server/index.ts`) for the bench, in its own process group so the build
// children go with it, and samples the memory of its build processes (the warm Astro process, Pagefind).
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
  options: { args?: string[]; env: Record<string, string>; port: number; ready: (base: string) => Promise<boolean>; timeoutMs: number },
): Promise<ProductProcess> {
  const child: ChildProcess = spawn(process.execPath, [script, ...(options.args ?? [])], {
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

/** Peak resident memory (VmHWM) of each live descendant of `pid` (not `pid` itself), in bytes; Linux /proc only. */
function descendantsPeakRss(pid: number): Map<number, number> {
  const result = new Map<number, number>();
  const walk = (id: number) => {
    for (const child of childrenOf(id)) {
      try {
        const peak = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child}/status`, 'utf8'));
        if (peak?.[1]) result.set(child, Number(peak[1]) * 1024);
      } catch {
        // Gone.
      }
      walk(child);
    }
  };
  walk(pid);
  return result;
}

/** Resident memory now (VmRSS) of `pid` and of its serving processes (the web workers), in bytes; Linux /proc only. */
export function servingRss(pid: number): number {
  const rss = (id: number) => {
    try {
      const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${id}/status`, 'utf8'));
      return match?.[1] ? Number(match[1]) * 1024 : 0;
    } catch {
      return 0;
    }
  };
  let total = rss(pid);
  for (const child of childrenOf(pid)) if (isServingProcess(child)) total += rss(child);
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

/**
 * Samples the build processes under `pid` (everything it spawned but its other serving processes: the warm
 * Astro process and Pagefind) every `everyMs` until stopped, and returns the peak of the sum of their
 * high-water marks: what the machine needs for a publish. A high-water mark cannot miss a short peak
 * between samples; the warm process's mark covers its earlier builds too, and summing can only overstate.
 */
export function samplePeakChildMemory(pid: number, everyMs = 100): { atStart: number; stop(): number } {
  const workers = new Set<number>();
  let peak = 0;
  const sample = () => {
    let total = 0;
    for (const [child, bytes] of descendantsPeakRss(pid)) {
      if (workers.has(child)) continue;
      if (isServingProcess(child)) {
        workers.add(child);
        continue;
      }
      total += bytes;
    }
    if (total > peak) peak = total;
  };
  const timer = setInterval(sample, everyMs);
  sample();
  return {
    // Before this publish: the build processes' marks left by earlier builds (the cold build's, on the first).
    atStart: peak,
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
