// The process model (docs/decisions/0022-one-process-model.md). First the real product as a child process
// (`node server/index.ts`, WEB_WORKERS=1) on a tiny hand-made build: pages and the API from every process,
// one session and one rate limit whichever process a request reaches, the header deadline on every
// process's connections, a killed process started again, SIGTERM closing idle keep-alive connections
// everywhere. Then the primary in-process with the real app and publisher (a controlled build runner
// instead of Astro) and a real forked process beside it: a write taken by the other process builds once,
// in the primary, reads 'building' at once from both, and is live in both when the publish says so.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPrimaryPublisher } from '../../../server/publish/shared-publisher.ts';
import type { Publisher } from '../../../server/publish/types.ts';
import { startServing, type Serving } from '../../../server/serving.ts';
import { createUser, DEFAULT_TEST_PASSWORD } from '../../helpers/auth.ts';
import { STRONG_PASSWORD } from '../../helpers/accounts.ts';
import { createControlledRunner } from '../../helpers/controlled-runner.ts';
import { freePort } from '../../helpers/fetch-client.ts';
import { readOutbox } from '../../helpers/mail.ts';
import type { PinnedConnection } from '../../helpers/pinned-connection.ts';
import { connectTo } from '../../helpers/pinned-connection.ts';
import { isProcessRunning } from '../../helpers/process-running.ts';
import { webhookDeliveries } from '../../../server/db/schema.ts';
import { createTestContext, makeTempDir, type TestContext } from '../../helpers/test-context.ts';

const projectRoot = path.resolve(import.meta.dirname, '../../..');
const ADMIN = { email: 'processes-admin@example.com', password: 'processes-admin-password' };
const BUILD_ID = '20260101T000000000Z-000';
const HEADERS_TIMEOUT_MS = 1000;
const BODY_TIMEOUT_MS = 2000;
const PROCESSES = ['main', 'worker-1'];

async function login(connection: PinnedConnection, password = ADMIN.password, email = ADMIN.email) {
  await connection.api('GET', '/sanctum/csrf-cookie');
  return connection.api('POST', '/api/auth/login', { email, password, remember_me: false, g_token: await connection.botToken() });
}

/** Sends the start of a request and never the rest; resolves with what the server said and when it closed. */
function sendHalfRequest(connection: PinnedConnection): Promise<{ answer: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const socket = connection.socket();
    if (!socket) return reject(new Error('the connection has no open socket'));
    const started = Date.now();
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.once('close', () => resolve({ answer, closedAfterMs: Date.now() - started }));
    socket.write('GET /news/ HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
  });
}

/** A plain socket to the process `name` (found by its X-Served-By), with what it receives from now on. */
async function rawSocketTo(port: number, name: string): Promise<{ socket: net.Socket; received: () => string }> {
  for (let attempt = 0; attempt < 64; attempt++) {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('error', () => {});
    socket.write('HEAD / HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await vi.waitFor(() => expect(text).toMatch(/\r\n\r\n/), { timeout: 5_000, interval: 10 });
    if (new RegExp(`^x-served-by: ${name}\\r$`, 'im').test(text)) {
      text = '';
      return { socket, received: () => text };
    }
    socket.destroy();
  }
  throw new Error(`no connection to port ${port} was answered by ${name}`);
}

describe('the product with WEB_WORKERS=1', () => {
  let dataDir: string;
  let port: number;
  let product: ChildProcess;
  let output = '';
  let exited: Promise<number | null>;

  const workerPids = () => [...output.matchAll(/worker 1 \(pid (\d+)\) serving/g)].map((match) => Number(match[1]));

  beforeAll(async () => {
    dataDir = makeTempDir('site-processes-');
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
        HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
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
    for (const pid of workerPids()) if (isProcessRunning(pid)) process.kill(pid, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers static pages from every process, byte for byte alike, from the compressed forms the primary stored', async () => {
    const [main, worker] = [await connectTo(port, 'main'), await connectTo(port, 'worker-1')];
    try {
      const [fromMain, fromWorker] = [await main.request('GET', '/news/'), await worker.request('GET', '/news/')];
      expect(fromWorker.status).toBe(200);
      expect(fromWorker.text).toContain('<h1>News</h1>');
      expect(fromWorker.body.equals(fromMain.body)).toBe(true);
      expect(fromWorker.headers.etag).toBe(fromMain.headers.etag);
      expect(fromWorker.headers['content-security-policy']).toBe(fromMain.headers['content-security-policy']);
      expect(fs.existsSync(path.join(dataDir, 'builds', BUILD_ID, 'news', 'index.html.br'))).toBe(true);
      expect((await worker.request('GET', '/news/', { headers: { 'Accept-Encoding': 'br' } })).headers['content-encoding']).toBe('br');
    } finally {
      main.close();
      worker.close();
    }
  });

  it('answers the API in every process itself, with one session whichever process a request reaches', async () => {
    const [main, worker] = [await connectTo(port, 'main'), await connectTo(port, 'worker-1')];
    try {
      for (const connection of [main, worker]) {
        const anonymous = await connection.api('GET', '/api/user');
        // Answered by the process that holds the connection: nothing is forwarded any more.
        expect([anonymous.status, anonymous.servedBy]).toEqual([401, connection.answeredBy]);
      }
      expect((await login(worker)).status).toBe(200);
      for (const [name, value] of worker.cookies) main.cookies.set(name, value);
      const me = await main.api('GET', '/api/user');
      expect([me.status, me.servedBy]).toEqual([200, 'main']);
      expect((JSON.parse(me.text) as { user: { email: string } }).user.email).toBe(ADMIN.email);
    } finally {
      main.close();
      worker.close();
    }
  });

  it('counts failed logins in one limit across processes, whatever address header the client forges', async () => {
    const [main, worker] = [await connectTo(port, 'main'), await connectTo(port, 'worker-1')];
    try {
      await main.api('GET', '/sanctum/csrf-cookie');
      await worker.api('GET', '/sanctum/csrf-cookie');
      const attempt = async (connection: PinnedConnection, forged: string) =>
        connection.api(
          'POST',
          '/api/auth/login',
          { email: 'guesser@example.com', password: 'wrong password', remember_me: false, g_token: await connection.botToken() },
          { 'X-Site-Client-IP': forged, 'X-Forwarded-For': forged },
        );
      for (let i = 0; i < 5; i++) expect((await attempt(i % 2 === 0 ? worker : main, `198.51.100.${i}`)).status).toBe(422);
      const sixth = await attempt(worker, '203.0.113.77');
      expect([sixth.status, sixth.servedBy]).toEqual([429, 'worker-1']);
    } finally {
      main.close();
      worker.close();
    }
  });

  it('closes a half-sent request within the header deadline on every process', async () => {
    for (const name of PROCESSES) {
      const connection = await connectTo(port, name);
      const { answer, closedAfterMs } = await sendHalfRequest(connection);
      // On a kept-alive connection Node closes without a 408; nothing else may come back.
      expect(answer, name).toMatch(/^$|^HTTP\/1\.1 408 /);
      // Closed by the header deadline (1 s), not by the 5 s keep-alive timeout; before, a half-sent
      // request to a worker stayed open for good.
      expect(closedAfterMs, name).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS * 0.9);
      expect(closedAfterMs, name).toBeLessThan(HEADERS_TIMEOUT_MS * 3);
      connection.close();
    }
  });

  it('answers a login body that trickles in 408 within the body deadline on every process (decision 0027)', async () => {
    for (const name of PROCESSES) {
      // The XSRF cookie and header of a browser, fetched on a connection to that process.
      const browser = await connectTo(port, name);
      await browser.api('GET', '/sanctum/csrf-cookie');
      const headers = Object.entries({ ...browser.browserHeaders(), 'Content-Type': 'application/json', 'Content-Length': '200' })
        .map(([header, value]) => `${header}: ${value}\r\n`)
        .join('');
      browser.close();
      const { socket, received } = await rawSocketTo(port, name);
      const started = Date.now();
      const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
      socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n{"email":`);
      const trickle = setInterval(() => socket.write(' '), 200);
      try {
        const closedAfterMs = await closed;
        expect(received(), name).toMatch(/^HTTP\/1\.1 408 /);
        expect(closedAfterMs, name).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS * 0.9);
        expect(closedAfterMs, name).toBeLessThan(BODY_TIMEOUT_MS * 3);
      } finally {
        clearInterval(trickle);
        socket.destroy();
      }
    }
  });

  it('starts a killed process again, which serves the site again', async () => {
    const [first] = workerPids();
    process.kill(first as number, 'SIGKILL');
    await vi.waitFor(() => expect(workerPids()).toHaveLength(2), { timeout: 15_000, interval: 100 });
    expect(output).toMatch(new RegExp(`worker 1 \\(pid ${first}\\) exited \\(SIGKILL\\); starting it again`));
    const worker = await connectTo(port, 'worker-1');
    try {
      expect((await worker.request('GET', '/')).text).toContain('Fake home');
    } finally {
      worker.close();
    }
  });

  it('sends a mailing queued through the other process from the primary alone, once', async () => {
    const admin = await connectTo(port, 'worker-1');
    try {
      expect((await login(admin)).status).toBe(200);
      const me = JSON.parse((await admin.api('GET', '/api/user')).text) as { user: { id: number } };
      const queued = await admin.api('POST', '/api/admin/sendmailing', { users: [me.user.id], title: 'Only the primary sends', body: 'Hello' });
      expect([queued.status, queued.servedBy]).toEqual([202, 'worker-1']);
    } finally {
      admin.close();
    }
    // The other process wakes the primary's mailing worker (AppContext.wake) and runs none itself (its lines
    // carry its name).
    await vi.waitFor(() => expect(output).toMatch(/mailing: 1 sent/), { timeout: 15_000, interval: 200 });
    expect(output).not.toMatch(/worker \d+: mailing:/);
    expect(readOutbox(path.join(dataDir, 'outbox')).filter((mail) => mail.subject === 'Only the primary sends')).toHaveLength(1);
  });

  it('refuses a second server on the same data directory, on another port, with a clear message', async () => {
    const second = spawn(process.execPath, ['server/index.ts'], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        BUILD_ON_START: 'false',
        SEED_DEMO: 'false',
      },
    });
    let said = '';
    second.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    expect(code).toBe(1);
    expect(said).toContain(`Another server is already running on DATA_DIR ${dataDir} (pid ${product.pid})`);
  });

  it('on SIGTERM closes idle keep-alive connections in every process and stops them all', async () => {
    const connections = await Promise.all(PROCESSES.map((name) => connectTo(port, name)));
    const closed = connections.map(
      (connection) =>
        new Promise<void>((resolve) => {
          const socket = connection.socket();
          if (!socket || socket.destroyed) resolve();
          else socket.once('close', () => resolve());
        }),
    );
    const pids = workerPids();
    product.kill('SIGTERM');
    // Idle keep-alive connections must not hold the stop: each is closed, and the processes exit well
    // before the 8 s hard limit.
    await Promise.all(closed);
    expect(await exited).toBe(0);
    for (const pid of pids) expect(isProcessRunning(pid)).toBe(false);
    for (const connection of connections) connection.close();
  });
});

describe('publishing and background work with another serving process', () => {
  let ctx: TestContext;
  let serving: Serving;
  let publisher: Publisher;
  const runner = createControlledRunner();
  const webhookRowsAtWake: number[] = [];

  const worker = () => vi.waitFor(() => connectTo(serving.port, 'worker-1', '/media/probe'), { timeout: 20_000, interval: 200 });
  const main = () => connectTo(serving.port, 'main', '/media/probe');
  const publishState = async (connection: PinnedConnection) =>
    (JSON.parse((await connection.api('GET', '/api/admin/publish')).text) as { state: string }).state;

  beforeAll(async () => {
    ctx = createTestContext({
      env: { HOST: '127.0.0.1', PORT: '0', WEB_WORKERS: '1', SERVED_BY_HEADER: 'true' },
      publisher: { schedule: (r) => publisher.schedule(r), status: () => publisher.status(), whenIdle: () => publisher.whenIdle() },
    });
    const primary = createPrimaryPublisher({ config: ctx.config, db: ctx.db, log: ctx.log, runBuild: runner.runBuild, onLive: (dir) => serving.goLive(dir) });
    publisher = primary.publisher;
    await createUser(ctx, { email: ADMIN.email, role: 'admin' });
    // The other process's wakes reach the primary's own (the test context records them in ctx.woken).
    serving = await startServing({
      config: ctx.config,
      app: ctx.app,
      db: ctx.db,
      log: ctx.log,
      workerEnv: ctx.env,
      onPublishRequest: primary.takeUp,
      onWake: (job) => {
        ctx.wake(job);
        // What the primary's job would find when it looks: the work must be committed before the nudge.
        if (job === 'webhooks') webhookRowsAtWake.push(ctx.db.select().from(webhookDeliveries).all().length);
      },
    });
  });

  afterAll(async () => {
    await publisher?.whenIdle();
    await serving?.close();
    ctx?.cleanup();
  });

  it('before the first build, every process says the site is being built', async () => {
    for (const connection of [await worker(), await main()]) {
      const page = await connection.request('GET', '/');
      expect([page.status, page.servedBy]).toEqual([503, connection.answeredBy]);
      connection.close();
    }
  });

  it('builds a write taken by the other process once, in the primary, and serves it everywhere when the publish says live', async () => {
    const [admin, observer] = [await worker(), await main()];
    try {
      expect((await login(admin, DEFAULT_TEST_PASSWORD)).status).toBe(200);
      for (const [name, value] of admin.cookies) observer.cookies.set(name, value);
      const created = await admin.api('POST', '/api/home/store', { title: 'Seen through every process', body: 'x', order: 1, id: '' });
      expect([created.status, created.servedBy]).toEqual([201, 'worker-1']);
      // The write answered: from now on every process says 'building' until its build is live.
      expect(await publishState(admin)).toBe('building');
      expect(await publishState(observer)).toBe('building');

      const build = await runner.started(1);
      expect(build.snapshot.home.map((section) => section.title)).toContain('Seen through every process');
      build.succeed();
      await vi.waitFor(async () => expect(await publishState(admin)).toBe('idle'), { timeout: 10_000, interval: 100 });
      expect(runner.builds).toHaveLength(1);
      // No other process built anything of its own: the only build directory is the primary's.
      expect(fs.readdirSync(ctx.config.buildsDir).filter((name) => /^\d{8}T/.test(name))).toEqual([build.job.id]);
      for (const connection of [admin, observer]) expect((await connection.request('GET', '/')).text).toContain('Seen through every process');
    } finally {
      admin.close();
      observer.close();
    }
  });

  it("wakes the primary's mailing worker when a mailing is queued through the other process", async () => {
    const admin = await worker();
    try {
      expect((await login(admin, DEFAULT_TEST_PASSWORD)).status).toBe(200);
      const me = JSON.parse((await admin.api('GET', '/api/user')).text) as { user: { id: number } };
      const before = ctx.woken.length;
      const queued = await admin.api('POST', '/api/admin/sendmailing', { users: [me.user.id], title: 'Sent at once', body: 'Hello' });
      expect([queued.status, queued.servedBy]).toEqual([202, 'worker-1']);
      await vi.waitFor(() => expect(ctx.woken.slice(before)).toEqual(['mailing']), { timeout: 5_000, interval: 50 });
    } finally {
      admin.close();
    }
  });

  it("wakes the primary's webhook delivery once the change that queued a delivery has committed in the other process", async () => {
    const admin = await worker();
    const visitor = await worker();
    try {
      expect((await login(admin, DEFAULT_TEST_PASSWORD)).status).toBe(200);
      // Never sent: no delivery job runs here, the primary's wake only records what it would find.
      const endpoint = await admin.api('POST', '/api/admin/webhooks', { url: 'https://crm.example.com/hooks', events: ['user.created'] });
      expect([endpoint.status, endpoint.servedBy]).toEqual([201, 'worker-1']);
      const before = ctx.woken.length;
      await visitor.api('GET', '/sanctum/csrf-cookie');
      const registered = await visitor.api('POST', '/api/auth/create', {
        name: 'Webhook Wendy',
        email: 'wendy@example.com',
        password: STRONG_PASSWORD,
        password_confirmation: STRONG_PASSWORD,
        g_token: await visitor.botToken(),
      });
      expect([registered.status, registered.servedBy]).toEqual([201, 'worker-1']);
      await vi.waitFor(() => expect(ctx.woken.slice(before)).toEqual(['webhooks']), { timeout: 5_000, interval: 50 });
      expect(webhookRowsAtWake).toEqual([1]);
    } finally {
      admin.close();
      visitor.close();
    }
  });

  it('a process started after the publish serves the live build from its first answer', async () => {
    const [old] = serving.workerPids();
    process.kill(old as number, 'SIGKILL');
    await vi.waitFor(() => expect(serving.workerPids().filter((pid) => pid !== old)).toHaveLength(1), { timeout: 15_000, interval: 100 });
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
