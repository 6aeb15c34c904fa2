// Static web workers (WEB_WORKERS, docs/decisions/0014-web-workers.md). First the real product as a child
// process (`node server/index.ts`) on a tiny hand-made build: pages come from more than one process, the
// API works through a worker with cookies intact, rate limits see the real client address, a killed worker
// comes back, SIGTERM stops everything. Then the serving layer in-process with the real app and publisher
// (a fake build runner instead of Astro, which takes half a minute): a streamed upload and a ranged
// download through a worker, and a publish that the worker serves as soon as the publish reports it live.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPublisher } from '../../../server/publish/publisher.ts';
import type { Publisher } from '../../../server/publish/types.ts';
import { startServing, type Serving } from '../../../server/serving.ts';
import { createUser, DEFAULT_TEST_PASSWORD } from '../../helpers/auth.ts';
import { createControlledRunner } from '../../helpers/controlled-runner.ts';
import { patternBytes, sha256Hex } from '../../helpers/downloads.ts';
import { connectTo, PinnedConnection } from '../../helpers/pinned-connection.ts';
import { createTestContext, makeTempDir, type TestContext } from '../../helpers/test-context.ts';

const projectRoot = path.resolve(import.meta.dirname, '../../..');
const ADMIN = { email: 'workers-admin@example.com', password: 'workers-admin-password' };
const BUILD_ID = '20260101T000000000Z-000';

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function login(connection: PinnedConnection, password = ADMIN.password, email = ADMIN.email) {
  await connection.api('GET', '/sanctum/csrf-cookie');
  return connection.api('POST', '/api/auth/login', { email, password, remember_me: false, g_token: await connection.botToken() });
}

describe('the product with WEB_WORKERS=1', () => {
  let dataDir: string;
  let port: number;
  let product: ChildProcess;
  let output = '';
  let exited: Promise<number | null>;

  const workerPids = () => [...output.matchAll(/web worker 1 \(pid (\d+)\) serving/g)].map((match) => Number(match[1]));

  beforeAll(async () => {
    dataDir = makeTempDir('site-workers-');
    const build = path.join(dataDir, 'builds', BUILD_ID);
    fs.mkdirSync(path.join(build, 'news'), { recursive: true });
    const padding = '<p>Coordinate measuring, laser scanning and the software around them.</p>'.repeat(40);
    fs.writeFileSync(path.join(build, 'index.html'), `<!DOCTYPE html><html><body><h1>Fake home</h1>${padding}</body></html>`);
    fs.writeFileSync(path.join(build, 'news', 'index.html'), `<!DOCTYPE html><html><body><h1>News</h1>${padding}</body></html>`);
    fs.symlinkSync(BUILD_ID, path.join(dataDir, 'builds', 'current'));
    port = await freePort();
    product = spawn(process.execPath, ['server/index.ts'], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        CONTENT_DIR: path.join(dataDir, 'content'),
        SITE_URL: `http://localhost:${port}`,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        BOTCHECK_COST: '1',
        BUILD_ON_START: 'false',
        SEED_DEMO: 'false',
        WEB_WORKERS: '1',
        SERVED_BY_HEADER: 'true',
        LOG_LEVEL: 'info',
      },
    });
    product.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    product.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    exited = new Promise((resolve) => product.once('exit', (code) => resolve(code)));
    await vi.waitFor(
      () => {
        if (product.exitCode !== null) throw new Error(`the product exited:\n${output}`);
        expect(workerPids()).toHaveLength(1);
      },
      { timeout: 40_000, interval: 100 },
    );
  });

  afterAll(async () => {
    if (product.exitCode === null) {
      product.kill('SIGKILL');
      await exited;
    }
    for (const pid of workerPids()) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers static pages from the main process and from the worker, byte for byte alike', async () => {
    const main = await connectTo(port, 'main');
    const worker = await connectTo(port, 'worker-1');
    try {
      const [fromMain, fromWorker] = [await main.request('GET', '/news/'), await worker.request('GET', '/news/')];
      expect(fromWorker.status).toBe(200);
      expect(fromWorker.text).toContain('<h1>News</h1>');
      expect(fromWorker.body.equals(fromMain.body)).toBe(true);
      expect(fromWorker.headers.etag).toBe(fromMain.headers.etag);
      expect(fromWorker.headers['content-security-policy']).toBe(fromMain.headers['content-security-policy']);
      // The worker compressed nothing: it sends the brotli form the main process stored beside the page.
      expect(fs.existsSync(path.join(dataDir, 'builds', BUILD_ID, 'news', 'index.html.br'))).toBe(true);
      const br = await worker.request('GET', '/news/', { headers: { 'Accept-Encoding': 'br, gzip' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(br.body).equals(fromMain.body)).toBe(true);
      // The stored forms are not pages of their own.
      expect((await worker.request('GET', '/news/index.html.br')).status).toBe(302);
    } finally {
      main.close();
      worker.close();
    }
  });

  it('logs in through the worker: the CSRF cookie, the login and the current user, every Set-Cookie intact', async () => {
    const browser = await connectTo(port, 'worker-1');
    try {
      const csrf = await browser.api('GET', '/sanctum/csrf-cookie');
      expect(csrf.status).toBe(204);
      expect(csrf.servedBy).toBe('main via worker-1');
      expect(browser.cookies.has('XSRF-TOKEN')).toBe(true);
      const before = new Set(browser.cookies.keys());

      const answer = await browser.api('POST', '/api/auth/login', { email: ADMIN.email, password: ADMIN.password, remember_me: true, g_token: await browser.botToken() });
      expect(answer.status).toBe(200);
      expect(answer.servedBy).toBe('main via worker-1');
      // The session cookie, the signed-in hint and a new XSRF token: separate headers, not one folded line.
      const setCookies = [answer.headers['set-cookie'] ?? []].flat();
      expect(setCookies.length).toBeGreaterThanOrEqual(2);
      expect([...browser.cookies.keys()].filter((name) => !before.has(name)).length).toBeGreaterThanOrEqual(1);

      const me = await browser.api('GET', '/api/user');
      expect(me.status).toBe(200);
      expect((JSON.parse(me.text) as { user: { email: string } }).user.email).toBe(ADMIN.email);
    } finally {
      browser.close();
    }
  });

  it('hands a connection whose first request is for the API to the main process whole (no forwarding)', async () => {
    // The kernel spreads new connections over both processes; without the hand-over about half of these
    // would be answered "main via worker-1".
    const firstAnswers = new Set<string>();
    for (let i = 0; i < 24; i++) {
      const connection = new PinnedConnection(port, 'main');
      try {
        const first = await connection.send('GET', '/api/user', { headers: { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' } });
        expect(first.status).toBe(401);
        firstAnswers.add(first.servedBy);
        // The main process owns the connection now: later requests on it, a page and a POST with a body, too.
        const page = await connection.send('GET', '/news/');
        expect([page.status, page.servedBy]).toEqual([200, 'main']);
        const csrf = await connection.api('GET', '/sanctum/csrf-cookie');
        expect([csrf.status, csrf.servedBy]).toEqual([204, 'main']);
        const logout = await connection.api('POST', '/api/auth/logout', {});
        expect(logout.servedBy).toBe('main');
        expect(logout.status).toBeLessThan(300);
      } finally {
        connection.close();
      }
    }
    expect([...firstAnswers]).toEqual(['main']);
  });

  it('counts failed logins by the real client address, whichever process took the connection and whatever header the client forged', async () => {
    const viaWorker = await connectTo(port, 'worker-1');
    const direct = await connectTo(port, 'main');
    try {
      await viaWorker.api('GET', '/sanctum/csrf-cookie');
      await direct.api('GET', '/sanctum/csrf-cookie');
      const attempt = async (connection: PinnedConnection, forged: string) =>
        connection.api(
          'POST',
          '/api/auth/login',
          { email: 'guesser@example.com', password: 'wrong password', remember_me: false, g_token: await connection.botToken() },
          { 'X-Site-Client-IP': forged },
        );
      for (let i = 0; i < 5; i++) expect((await attempt(i % 2 === 0 ? viaWorker : direct, `198.51.100.${i}`)).status).toBe(422);
      // One bucket for all five: the worker's forwarded address and the main process's own socket agree.
      const sixth = await attempt(viaWorker, '203.0.113.77');
      expect(sixth.status).toBe(429);
      expect(sixth.servedBy).toBe('main via worker-1');
    } finally {
      viaWorker.close();
      direct.close();
    }
  });

  it('starts a killed worker again, which serves the site again', async () => {
    const [first] = workerPids();
    process.kill(first as number, 'SIGKILL');
    await vi.waitFor(() => expect(workerPids()).toHaveLength(2), { timeout: 15_000, interval: 100 });
    expect(output).toMatch(new RegExp(`web worker 1 \\(pid ${first}\\) exited \\(SIGKILL\\); starting it again`));
    const worker = await connectTo(port, 'worker-1');
    try {
      expect((await worker.request('GET', '/')).text).toContain('Fake home');
    } finally {
      worker.close();
    }
  });

  it('stops the workers and then itself on SIGTERM', async () => {
    const pids = workerPids();
    product.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'run', 'app.sock'))).toBe(false);
  });
});

describe('publishing with web workers', () => {
  let ctx: TestContext;
  let serving: Serving;
  let publisher: Publisher;
  const runner = createControlledRunner();

  const worker = () => vi.waitFor(() => connectTo(serving.port, 'worker-1', '/media/probe'), { timeout: 15_000, interval: 200 });

  beforeAll(async () => {
    // The app schedules through this; the real publisher needs the app's database, so it comes second.
    const late: Publisher = { schedule: (reason) => publisher.schedule(reason), status: () => publisher.status(), whenIdle: () => publisher.whenIdle() };
    ctx = createTestContext({ publisher: late, env: { HOST: '127.0.0.1', PORT: '0', WEB_WORKERS: '1', SERVED_BY_HEADER: 'true' } });
    publisher = createPublisher({ config: ctx.config, db: ctx.db, log: ctx.log, runBuild: runner.runBuild, onLive: (dir) => serving.goLive(dir) });
    await createUser(ctx, { email: ADMIN.email, role: 'admin' });
    serving = await startServing({ config: ctx.config, app: ctx.app, log: ctx.log });
  });

  afterAll(async () => {
    await publisher?.whenIdle();
    await serving?.close();
    ctx?.cleanup();
  });

  it('before the first build, a worker hands pages to the main process, which says the site is being built', async () => {
    const connection = await worker();
    try {
      const page = await connection.request('GET', '/');
      expect(page.status).toBe(503);
      expect(page.servedBy).toBe('main via worker-1');
    } finally {
      connection.close();
    }
  });

  it('streams an upload through a worker and a ranged download back', async () => {
    const admin = await worker();
    try {
      expect((await login(admin, DEFAULT_TEST_PASSWORD)).status).toBe(200);
      const content = patternBytes(300_000);
      const boundary = 'workers-test-boundary';
      const parts = [
        `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nThrough a worker\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="downloadable"\r\n\r\n1\r\n`,
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="setup.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ];
      // Chunked, in pieces: nothing knows the length in advance, as with a browser streaming a big file.
      const body = Readable.from([...parts.map((part) => Buffer.from(part)), content.subarray(0, 100_000), content.subarray(100_000), Buffer.from(`\r\n--${boundary}--\r\n`)]);
      const stored = await admin.request('POST', '/api/downloads/store', {
        headers: { ...admin.browserHeaders(), 'Content-Type': `multipart/form-data; boundary=${boundary}` },
        body,
      });
      expect(stored.status, stored.text).toBe(201);
      expect(stored.servedBy).toBe('main via worker-1');
      const { release } = JSON.parse(stored.text) as { release: { id: number; sha256: string } };
      expect(release.sha256).toBe(sha256Hex(content));

      const part = await admin.request('GET', `/api/downloads/file/${release.id}`, { headers: { ...admin.browserHeaders(), Range: 'bytes=1000-1999' } });
      expect(part.status).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 1000-1999/${content.length}`);
      expect(part.body.equals(content.subarray(1000, 2000))).toBe(true);
    } finally {
      admin.close();
    }
    // The upload scheduled a publish: let it finish.
    (await runner.started(1)).succeed();
    await publisher.whenIdle();
  });

  it('serves a published change from the worker as soon as the publish reports it live', async () => {
    const admin = await worker();
    try {
      expect((await login(admin, DEFAULT_TEST_PASSWORD)).status).toBe(200);
      const created = await admin.api('POST', '/api/home/store', { title: 'Seen through every process', body: 'x', order: 1, id: '' });
      expect(created.status).toBe(201);
      (await runner.started(2)).succeed();
      await publisher.whenIdle();
      expect(publisher.status().state).toBe('idle');
      const page = await admin.request('GET', '/');
      expect(page.servedBy).toBe('worker-1');
      expect(page.text).toContain('Seen through every process');
    } finally {
      admin.close();
    }
    const main = await connectTo(serving.port, 'main', '/media/probe');
    try {
      expect((await main.request('GET', '/')).text).toContain('Seen through every process');
    } finally {
      main.close();
    }
  });

  it('a worker started after the publish serves the live build from its first answer', async () => {
    const [old] = serving.workerPids();
    process.kill(old as number, 'SIGKILL');
    await vi.waitFor(
      () => {
        const pids = serving.workerPids();
        expect(pids.length === 1 && pids[0] !== old).toBe(true);
      },
      { timeout: 15_000, interval: 100 },
    );
    const connection = await worker();
    try {
      const page = await connection.request('GET', '/');
      expect(page.servedBy).toBe('worker-1');
      expect(page.text).toContain('Seen through every process');
    } finally {
      connection.close();
    }
  });
});
