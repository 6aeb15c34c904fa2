// Issue 6 "done when": a 1 GiB release uploads and downloads with the server's memory staying flat, and a
// cut download resumes. This starts a server (or uses a running one), uploads a generated file through
// POST /api/downloads/store, downloads it whole and in two resumed halves, checks the SHA-256 each time,
// and prints the server's resident memory: before, the peak during each phase, and the kernel's
// high-water mark. Issue 25: the release then gets a version, and the file is fetched again through the
// update API's signed link (GET /api/updates/v1/latest, then its file.url, no session), whole and resumed.
// The file's Ed25519 signature is made meanwhile in a child process of its own (docs/updates.md), whose
// peak is printed apart: it holds the whole file once, by design; the server does not.
//
//   node scripts/download-memory-check.ts [--size-mib 1024]
//   node scripts/download-memory-check.ts --url http://host:port --email admin@… --password … --pid <server pid>
//
// Without --url it starts `node server/index.ts` on a free port with a throwaway DATA_DIR (no demo content,
// no site build) and stops it afterwards. The server's memory is read from /proc/<pid>/status (Linux).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { solveBotChallenge } from '../tests/helpers/botcheck.ts';

const MiB = 1024 * 1024;
const { values: options } = parseArgs({
  options: {
    'size-mib': { type: 'string', default: '1024' },
    url: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    pid: { type: 'string' },
  },
});
const size = Number(options['size-mib']) * MiB;

/** A memory figure of the process in bytes; 0 once the process is gone. */
function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function startServer(): Promise<{ base: string; pid: number; email: string; password: string; stop: () => void }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'download-memory-check-'));
  const port = await freePort();
  const email = 'admin@example.com';
  const password = 'memory-check-password';
  const root = path.resolve(import.meta.dirname, '..');
  const child: ChildProcess = spawn(process.execPath, ['server/index.ts'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      SITE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      CONTENT_DIR: path.join(dataDir, 'content'),
      ADMIN_EMAIL: email,
      ADMIN_PASSWORD: password,
      SEED_DEMO: '0',
      BUILD_ON_START: '0',
      BOTCHECK_COST: '1',
      LOG_LEVEL: 'warn',
    },
  });
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await fetch(`${base}/sanctum/csrf-cookie`)).status === 204) break;
    } catch {
      // Not listening yet.
    }
    if (attempt > 100 || child.exitCode !== null) {
      stop();
      throw new Error('the server did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { base, pid: child.pid ?? NaN, email, password, stop };
}

/** Logs in as the browser client does and returns the headers that carry the session. */
async function logIn(base: string, email: string, password: string): Promise<Record<string, string>> {
  const cookies = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const headers = () => ({
    Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    'X-XSRF-TOKEN': decodeURIComponent(cookies.get('XSRF-TOKEN') ?? ''),
    'X-Requested-With': 'XMLHttpRequest',
    Accept: 'application/json',
  });
  remember(await fetch(`${base}/sanctum/csrf-cookie`));
  const g_token = await solveBotChallenge({ request: (target, init) => fetch(`${base}${target}`, init) });
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { ...headers(), 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, remember_me: false, g_token }),
  });
  if (response.status !== 200) throw new Error(`login answered ${response.status}: ${await response.text()}`);
  remember(response);
  return headers();
}

/** Watches the server's RSS until stopped; returns the peak. */
function watchRss(pid: number): () => number {
  let peak = statusField(pid, 'VmRSS');
  const timer = setInterval(() => {
    peak = Math.max(peak, statusField(pid, 'VmRSS'));
  }, 20);
  // A failed phase must not keep the script alive.
  timer.unref();
  return () => {
    clearInterval(timer);
    return Math.max(peak, statusField(pid, 'VmRSS'));
  };
}

async function upload(base: string, headers: Record<string, string>): Promise<{ id: number; sha256: string }> {
  const boundary = `----memory-check-${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nMemory check\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="downloadable"\r\n\r\n1\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="memory-check.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL(`${base}/api/downloads/store`);
  const request = http.request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    agent: false,
    headers: { ...headers, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + size + tail.length) },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (text: string) => (body += text));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
  const write = (chunk: Buffer) => new Promise<void>((resolve, reject) => request.write(chunk, (error) => (error ? reject(error) : resolve())));
  const hash = createHash('sha256');
  const chunk = Buffer.alloc(MiB);
  try {
    await write(head);
    for (let sent = 0, index = 0; sent < size; index++) {
      const part = chunk.subarray(0, Math.min(MiB, size - sent));
      part.fill(index % 251);
      part.writeUInt32BE(index, 0);
      hash.update(part);
      await write(part);
      sent += part.length;
    }
    request.end(tail);
  } catch (error) {
    // The server stopped reading (413 past UPLOAD_MAX_BYTES): its answer says why.
    const early = await Promise.race([answer.catch(() => null), new Promise<null>((resolve) => setTimeout(() => resolve(null), 2000))]);
    throw early ? new Error(`upload answered ${early.status}: ${early.body}`) : error;
  }
  const { status, body } = await answer;
  if (status !== 201) throw new Error(`upload answered ${status}: ${body}`);
  const { release } = JSON.parse(body) as { release: { id: number; sha256: string } };
  const expected = hash.digest('hex');
  if (release.sha256 !== expected) throw new Error(`stored SHA-256 ${release.sha256} differs from the sent bytes' ${expected}`);
  return release;
}

/** Streams a GET into a hash; `range` resumes like `curl -C -`. `id` is a release id, or a whole URL (a signed link). */
function download(
  base: string,
  headers: Record<string, string>,
  id: number | string,
  hash: ReturnType<typeof createHash>,
  range?: string,
): Promise<{ status: number; bytes: number }> {
  const url = typeof id === 'string' ? id : `${base}/api/downloads/file/${id}`;
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: range ? { ...headers, Range: range } : headers, agent: false }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

/** The children of a process (the signing child of digests.ts among them), from /proc. */
function childPids(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Gives the release a version, asks `latest` without a key, and downloads its signed link whole and resumed. */
async function throughSignedLink(
  server: { base: string; pid: number },
  headers: Record<string, string>,
  release: { id: number; sha256: string },
): Promise<boolean> {
  const form = new FormData();
  form.append('version', '9.9.9');
  const updated = await fetch(`${server.base}/api/downloads/update/${release.id}`, { method: 'POST', headers, body: form });
  if (updated.status !== 200) throw new Error(`setting the version answered ${updated.status}: ${await updated.text()}`);
  const latest = (await (await fetch(`${server.base}/api/updates/v1/latest?platform=windows`)).json()) as {
    latest: { version: string; file: { url: string } } | null;
  };
  if (latest.latest?.version !== '9.9.9') throw new Error(`latest answered ${JSON.stringify(latest)}`);
  const link = latest.latest.file.url;
  let signingPeak = 0;
  const signingWatch = setInterval(() => {
    for (const child of childPids(server.pid)) signingPeak = Math.max(signingPeak, statusField(child, 'VmHWM'));
  }, 20);
  signingWatch.unref();
  try {
    const stopWatch = watchRss(server.pid);
    const started = Date.now();
    const whole = createHash('sha256');
    const full = await download(server.base, {}, link, whole);
    const cut = Math.floor(size / 2);
    const resumed = createHash('sha256');
    const first = await download(server.base, {}, link, resumed, `bytes=0-${cut - 1}`);
    const rest = await download(server.base, {}, link, resumed, `bytes=${cut}-`);
    const ok =
      full.status === 200 && whole.digest('hex') === release.sha256 && first.status === 206 && rest.status === 206 && resumed.digest('hex') === release.sha256;
    console.log(
      `signed link (update API, no session): whole and resumed in ${Date.now() - started} ms, ${ok ? 'bytes match' : 'MISMATCH'}, peak RSS ${mib(stopWatch())}`,
    );
    return ok;
  } finally {
    clearInterval(signingWatch);
    console.log(
      `signing child (Ed25519 over the whole file, outside the server): ${signingPeak > 0 ? `peak ${mib(signingPeak)}` : 'finished before it was sampled'}`,
    );
  }
}

const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
const rate = (ms: number) => `${(size / MiB / (ms / 1000)).toFixed(0)} MiB/s`;

async function main(): Promise<void> {
  const server = options.url
    ? { base: options.url.replace(/\/+$/, ''), pid: Number(options.pid), email: options.email ?? '', password: options.password ?? '', stop: () => {} }
    : await startServer();
  try {
    if (!Number.isInteger(server.pid)) throw new Error('--pid of the server process is needed to read its memory');
    const headers = await logIn(server.base, server.email, server.password);
    const before = statusField(server.pid, 'VmRSS');
    console.log(`server pid ${server.pid}, RSS before: ${mib(before)}; file: ${mib(size)}`);

    let stopWatch = watchRss(server.pid);
    let started = Date.now();
    const release = await upload(server.base, headers).finally(() => stopWatch());
    console.log(`upload:   ${Date.now() - started} ms (${rate(Date.now() - started)}), SHA-256 matches, peak RSS ${mib(stopWatch())}`);

    stopWatch = watchRss(server.pid);
    started = Date.now();
    const whole = createHash('sha256');
    const full = await download(server.base, headers, release.id, whole);
    const wholeOk = full.status === 200 && full.bytes === size && whole.digest('hex') === release.sha256;
    console.log(`download: ${Date.now() - started} ms (${rate(Date.now() - started)}), ${wholeOk ? 'bytes match' : 'MISMATCH'}, peak RSS ${mib(stopWatch())}`);

    // A cut download resumed: the first part, then `Range: bytes=N-` as `curl -C -` sends.
    stopWatch = watchRss(server.pid);
    const resumed = createHash('sha256');
    const cut = Math.floor(size / 3);
    const first = await download(server.base, headers, release.id, resumed, `bytes=0-${cut - 1}`);
    const rest = await download(server.base, headers, release.id, resumed, `bytes=${cut}-`);
    const resumeOk = first.status === 206 && rest.status === 206 && first.bytes + rest.bytes === size && resumed.digest('hex') === release.sha256;
    console.log(`resume:   cut at ${mib(cut)}, ${resumeOk ? 'bytes match' : 'MISMATCH'}, peak RSS ${mib(stopWatch())}`);

    // Issue 25: the same bytes through the update API's signed link, no session.
    const signedOk = await throughSignedLink(server, headers, release);

    console.log(`server peak RSS over its life (VmHWM): ${mib(statusField(server.pid, 'VmHWM'))}`);
    if (!wholeOk || !resumeOk || !signedOk) process.exitCode = 1;
  } finally {
    server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
