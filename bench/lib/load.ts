// Load generators for the bench: wrk (Debian) for GET throughput, where a C client on loopback is not
// the bottleneck; autocannon (npm) where every request needs its own body (logins with a fresh bot token).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers that were not 2xx/3xx, and socket errors: any of these makes the figure worthless. */
  errors: number;
  /** Bytes the client read, headers included: how much each answer carried, so two servers' figures are
   *  only compared when they sent the same (bench/run.ts, the static page). */
  bytesRead: number;
}

export interface WrkOptions {
  url: string;
  seconds: number;
  connections: number;
  headers?: Record<string, string>;
  /** A POST of this same body on every request (the licensing API's validate), through a wrk Lua script. */
  postBody?: string;
}

export function runWrk(options: WrkOptions): Promise<LoadResult> {
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--latency'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  // The POST script's directory, removed when wrk ends (a full bench runs wrk a few hundred times).
  let scriptDir: string | null = null;
  if (options.postBody !== undefined) {
    if (options.postBody.includes(']==]')) throw new Error('the POST body cannot be quoted for wrk');
    scriptDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-wrk-'));
    const script = path.join(scriptDir, 'post.lua');
    fs.writeFileSync(script, `wrk.method = "POST"\nwrk.body = [==[${options.postBody}]==]\n`);
    args.push('-s', script);
  }
  args.push(options.url);
  const removeScript = () => {
    if (scriptDir) fs.rmSync(scriptDir, { recursive: true, force: true });
  };
  return new Promise<LoadResult>((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited with ${code}:\n${out}`));
      try {
        resolve(parseWrkOutput(out));
      } catch (error) {
        reject(error instanceof Error ? new Error(`${error.message}\n${out}`) : error);
      }
    });
  }).finally(removeScript);
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
const BINARY_UNIT: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 };

function durationMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) throw new Error(`unreadable wrk duration "${text}"`);
  return Number(match[1]) * (UNIT_MS[match[2] ?? 'ms'] ?? 1);
}

/** Reads requests/s, the 50th and 99th latency percentiles, and every kind of error from wrk --latency. */
export function parseWrkOutput(out: string): LoadResult {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const p50 = /^\s+50%\s+(\S+)/m.exec(out);
  const p99 = /^\s+99%\s+(\S+)/m.exec(out);
  const total = /(\d+) requests in /.exec(out);
  if (!rps?.[1] || !p50?.[1] || !p99?.[1] || !total?.[1]) throw new Error('wrk printed no latency distribution (was --latency given?)');
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
  // wrk prints what it read in binary units with two decimals ("7.31GB read"): within 0.5% at worst.
  const read = /requests in [\d.]+\w+, ([\d.]+)([KMGT]?)B read/.exec(out);
  if (!read?.[1]) throw new Error('wrk printed no byte count ("… read")');
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requestsPerSec: Number(rps[1]),
    p50Ms: durationMs(p50[1]),
    p99Ms: durationMs(p99[1]),
    requests: Number(total[1]),
    errors: Number(non2xx?.[1] ?? 0) + socketErrors,
    bytesRead: Math.round(Number(read[1]) * (BINARY_UNIT[read[2] ?? ''] ?? 1)),
  };
}

export interface CannonOptions {
  url: string;
  seconds: number;
  connections: number;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  /** One body per request, used in order; the run ends early when they run out. */
  bodies: string[];
}

/** autocannon with a distinct body per request (a bot token can be spent once). */
export async function runCannon(options: CannonOptions): Promise<LoadResult> {
  let next = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    amount: options.bodies.length,
    requests: [
      {
        method: options.method,
        headers: options.headers,
        setupRequest: (request) => ({ ...request, body: options.bodies[next++ % options.bodies.length] }),
      },
    ],
  });
  return {
    requestsPerSec: result.requests.total / (result.duration || options.seconds),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.non2xx + result.errors + result.timeouts,
    bytesRead: result.throughput.total,
  };
}
