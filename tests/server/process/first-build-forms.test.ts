// The first build of a server goes live as soon as its files are read, and its gzip and brotli forms follow
// (server/serving.ts; most of a cold start's time after the build went into making them, docs/scaling.md).
// Every process must then serve those forms, they must be written beside the files (nginx serves them from
// there), and a build that goes live meanwhile must never be replaced by the first one's late forms.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServing, type Serving } from '../../../server/serving.ts';
import { connectTo, type PinnedConnection } from '../../helpers/pinned-connection.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

/** A build whose pages take brotli a while: 101 pages of 40 KB of varied text. */
function writeBuild(ctx: TestContext, id: string, title: string): string {
  const dir = path.join(ctx.config.buildsDir, id);
  const words = ['probe', 'datum', 'tolerance', 'flatness', 'bore', 'fixture', 'scan', 'alignment', 'stylus', 'sphere'];
  const page = (seed: number) => {
    let text = '';
    for (let i = 0; text.length < 40_000; i++) text += `${words[(i * 7 + seed) % words.length]} ${(i * 31 + seed) % 997} `;
    return `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;
  };
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), page(0));
  for (let index = 1; index <= 100; index++) {
    fs.mkdirSync(path.join(dir, `page-${index}`), { recursive: true });
    fs.writeFileSync(path.join(dir, `page-${index}`, 'index.html'), page(index));
  }
  return dir;
}

const brotliOf = async (connection: PinnedConnection, target = '/') => {
  const answer = await connection.request('GET', target, { headers: { 'Accept-Encoding': 'br' } });
  expect(answer.status).toBe(200);
  return answer;
};

describe("the first build's compressed forms", () => {
  let ctx: TestContext;
  let serving: Serving;
  const connections: PinnedConnection[] = [];
  const main = async () => {
    const connection = await connectTo(serving.port, 'main', '/media/probe');
    connections.push(connection);
    return connection;
  };
  const worker = async () => {
    const connection = await vi.waitFor(() => connectTo(serving.port, 'worker-1', '/media/probe'), { timeout: 20_000, interval: 200 });
    connections.push(connection);
    return connection;
  };

  beforeAll(async () => {
    ctx = createTestContext({ env: { HOST: '127.0.0.1', PORT: '0', WEB_WORKERS: '1', SERVED_BY_HEADER: 'true' } });
    // As `npm start` does on a data directory without a build (docs/decisions/0063-workers-after-the-first-build.md).
    serving = await startServing({ config: ctx.config, app: ctx.app, db: ctx.db, log: ctx.log, workerEnv: ctx.env, workersAfterFirstBuild: true });
  });
  afterAll(async () => {
    for (const connection of connections) connection.close();
    await serving?.close();
    ctx?.cleanup();
  });

  it('are not waited for: the build is served uncompressed at once, then with its forms by every process', async () => {
    const dir = writeBuild(ctx, 'first', 'First build');
    const fromMain = await main();
    // Nothing is live yet: the other serving process is held back until the first build is.
    expect(serving.workerPids()).toEqual([]);
    expect(ctx.logLines.some((line) => line.includes('worker 1'))).toBe(false);
    await serving.goLive(dir);
    // Live in the primary at once, uncompressed (the forms are swapped in only once all of them are made,
    // which takes a while for these pages).
    const early = await brotliOf(fromMain);
    expect(early.text).toContain('First build');
    expect(early.headers['content-encoding']).toBeUndefined();
    // The other process starts with that build live: from its first answer on it serves it.
    expect(serving.workerPids()).toHaveLength(1);
    const fromWorker = await worker();
    expect((await fromWorker.request('GET', '/page-100/')).text).toContain('First build');

    await vi.waitFor(() => expect(ctx.logLines.some((line) => line.includes("the first build's compressed forms are made and served"))).toBe(true), {
      timeout: 30_000,
      interval: 100,
    });
    for (const connection of [fromMain, fromWorker]) {
      const answer = await brotliOf(connection, '/page-100/');
      expect(answer.headers['content-encoding'], connection.answeredBy).toBe('br');
      expect(answer.servedBy).toBe(connection.answeredBy);
    }
    expect(fs.existsSync(path.join(dir, 'page-100', 'index.html.br'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'index.html.gz'))).toBe(true);
  });

  it('a later build goes live with forms of its own in every process', async () => {
    const second = writeBuild(ctx, 'second', 'Second build');
    await serving.goLive(second);
    for (const connection of [await main(), await worker()]) {
      const answer = await brotliOf(connection, '/page-7/');
      expect(answer.headers['content-encoding']).toBe('br');
      expect(answer.text.length).toBeGreaterThan(0);
      const plain = await connection.request('GET', '/page-7/');
      expect(plain.text).toContain('Second build');
    }
  });
});

describe('a build that goes live while the first one is being compressed', () => {
  let ctx: TestContext;
  let serving: Serving;

  beforeAll(async () => {
    ctx = createTestContext({ env: { HOST: '127.0.0.1', PORT: '0', WEB_WORKERS: '1', SERVED_BY_HEADER: 'true' } });
    serving = await startServing({ config: ctx.config, app: ctx.app, db: ctx.db, log: ctx.log, workerEnv: ctx.env });
  });
  afterAll(async () => {
    await serving?.close();
    ctx?.cleanup();
  });

  it('waits for those forms and stays live after them, in every process', async () => {
    const first = writeBuild(ctx, 'first', 'First build');
    const second = writeBuild(ctx, 'second', 'Second build');
    await serving.goLive(first);
    // At once, while the first build's forms are being made: this one waits its turn, then goes live.
    await serving.goLive(second);
    expect(fs.existsSync(path.join(first, 'page-100', 'index.html.br'))).toBe(true);
    const connections = [
      await connectTo(serving.port, 'main', '/media/probe'),
      await vi.waitFor(() => connectTo(serving.port, 'worker-1', '/media/probe'), { timeout: 20_000, interval: 200 }),
    ];
    try {
      for (const connection of connections) {
        expect((await connection.request('GET', '/page-3/')).text).toContain('Second build');
        expect((await brotliOf(connection, '/page-3/')).headers['content-encoding']).toBe('br');
      }
    } finally {
      for (const connection of connections) connection.close();
    }
  });
});

describe('other serving processes held back for a first build that fails', () => {
  let ctx: TestContext;
  let serving: Serving;

  beforeAll(async () => {
    ctx = createTestContext({ env: { HOST: '127.0.0.1', PORT: '0', WEB_WORKERS: '1', SERVED_BY_HEADER: 'true' } });
    serving = await startServing({ config: ctx.config, app: ctx.app, db: ctx.db, log: ctx.log, workerEnv: ctx.env, workersAfterFirstBuild: true });
  });
  afterAll(async () => {
    await serving?.close();
    ctx?.cleanup();
  });

  it('start when asked (the server does when its first publish ends without a build), and serve the API', async () => {
    expect(serving.workerPids()).toEqual([]);
    serving.startWorkers();
    const connection = await vi.waitFor(() => connectTo(serving.port, 'worker-1', '/media/probe'), { timeout: 20_000, interval: 200 });
    try {
      expect((await connection.request('GET', '/healthz')).status).toBe(200);
      // Still nothing to serve: the page says so rather than something stale.
      expect((await connection.request('GET', '/')).status).toBe(503);
      // Asked again (a second failure): still the one process.
      serving.startWorkers();
      expect(serving.workerPids()).toHaveLength(1);
    } finally {
      connection.close();
    }
  });
});
