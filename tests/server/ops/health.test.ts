// /healthz and /readyz on a real port (README, Operations): the liveness answer, and a 503 naming each
// readiness condition that fails: the database, the live build, DATA_DIR's writability, free disk space.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpsEndpoints } from '../../../server/ops/endpoints.ts';
import { createReadinessCheck } from '../../../server/ops/health.ts';
import { aggregateMetrics } from '../../../server/ops/metrics-aggregate.ts';
import { createHttpServer } from '../../../server/server.ts';
import { loadStaticSite, type StaticSite } from '../../../server/static/static-site.ts';
import { listen, rawRequest } from '../../helpers/raw-http.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';
import { writeBuild } from '../static/fixture-build.ts';

const LIVE_SITE = { lookup: () => undefined } as unknown as StaticSite;

let ctx: TestContext | undefined;
let server: Awaited<ReturnType<typeof listen>> | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  ctx?.cleanup();
  ctx = undefined;
});

async function start(options: { site?: StaticSite | null; minFreeMb?: string } = {}) {
  ctx = createTestContext({ env: { READY_MIN_FREE_MB: options.minFreeMb ?? '1' } });
  const site = options.site === undefined ? LIVE_SITE : options.site;
  const getSite = () => site;
  // No cache: each probe sees the state the test just made.
  const ready = createReadinessCheck({ config: ctx.config, db: ctx.db, getSite, fileCheckCacheMs: 0 });
  server = await listen(
    createHttpServer({
      app: ctx.app,
      getSite,
      mediaDir: ctx.config.uploadsDir,
      ops: createOpsEndpoints({ ready, metrics: aggregateMetrics.bind(null, []), metricsToken: undefined }),
    }),
  );
  const port = server.port;
  const get = async (target: string, method = 'GET') => {
    const response = await rawRequest(port, target, { method });
    const isJson = response.headers['content-type'] === 'application/json' && response.text;
    return { ...response, json: isJson ? (JSON.parse(response.text) as { status: string; failed?: string[]; checks: Record<string, string> }) : null };
  };
  return { ctx, get };
}

describe('/healthz', () => {
  it('answers 200 with a tiny JSON body, never cached, even before any build is live', async () => {
    const { get } = await start({ site: null });
    const alive = await get('/healthz');
    expect(alive.status).toBe(200);
    expect(alive.json).toEqual({ status: 'ok' });
    expect(alive.headers['content-type']).toBe('application/json');
    expect(alive.headers['cache-control']).toBe('no-store');
    const head = await get('/healthz', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('is neither rate-limited nor logged, however often a balancer asks', async () => {
    const { ctx, get } = await start();
    const statuses = await Promise.all(Array.from({ length: 60 }, (_, i) => get(i % 2 ? '/healthz' : '/readyz').then((answer) => answer.status)));
    expect(new Set(statuses)).toEqual(new Set([200]));
    expect(ctx.logLines).toEqual([]);
  });
});

describe('the operator paths and the live build', () => {
  it('are answered by the endpoints even when the build has pages at their paths', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ops-shadow-'));
    try {
      const page = '<!DOCTYPE html><p>A page of the build</p>';
      const dir = writeBuild(root, 'build', { 'healthz/index.html': page, 'readyz/index.html': page, 'metrics.html': page, 'news/index.html': page });
      const { get } = await start({ site: await loadStaticSite(dir) });
      expect((await get('/news/')).text).toBe(page);
      expect((await get('/healthz')).json).toEqual({ status: 'ok' });
      expect((await get('/readyz')).json?.status).toBe('ready');
      const metrics = await get('/metrics');
      expect(metrics.headers['content-type']).not.toContain('text/html');
      expect(metrics.text).not.toContain('A page of the build');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('/readyz', () => {
  it('answers 200 when every check passes', async () => {
    const { get } = await start();
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.headers['cache-control']).toBe('no-store');
    expect(ready.json).toEqual({ status: 'ready', checks: { database: 'ok', build: 'ok', data_dir: 'ok', disk: 'ok' } });
  });

  it('answers 503 naming the database when it does not answer', async () => {
    const { ctx, get } = await start();
    expect((await get('/readyz')).status).toBe(200);
    ctx.db.$client.close();
    const answer = await get('/readyz');
    expect(answer.status).toBe(503);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.json?.failed).toEqual(['database']);
    expect(answer.json?.checks.database).toBe('the database does not answer');
    // cleanup() closes it again: give it a fresh handle to close.
    Object.assign(ctx.db, { $client: { close: () => {} } });
  });

  it('answers 503 naming the build while no live build is served', async () => {
    const { get } = await start({ site: null });
    const answer = await get('/readyz');
    expect(answer.status).toBe(503);
    expect(answer.json?.failed).toEqual(['build']);
  });

  it('answers 503 naming DATA_DIR when it is not writable', async () => {
    const { ctx, get } = await start();
    // Root may write anywhere whatever the mode bits, so the directory is taken away instead (also what
    // an unmounted volume looks like). The database file stays open.
    const moved = `${ctx.dataDir}-moved`;
    fs.renameSync(ctx.dataDir, moved);
    try {
      const answer = await get('/readyz');
      expect(answer.status).toBe(503);
      expect(answer.json?.failed).toContain('data_dir');
      expect(answer.json?.checks.data_dir).toBe('DATA_DIR is not writable');
      expect(JSON.stringify(answer.json)).not.toContain(ctx.dataDir);
    } finally {
      fs.renameSync(moved, ctx.dataDir);
    }
    expect((await get('/readyz')).status).toBe(200);
  });

  it('answers 503 naming the disk when free space is below READY_MIN_FREE_MB', async () => {
    const { get } = await start({ minFreeMb: '9000000' });
    const answer = await get('/readyz');
    expect(answer.status).toBe(503);
    expect(answer.json?.failed).toEqual(['disk']);
    expect(answer.json?.checks.disk).toMatch(/^\d+ MB free, below READY_MIN_FREE_MB \(9000000 MB\)$/);
  });

  it('names every condition that fails at once', async () => {
    const { ctx, get } = await start({ site: null, minFreeMb: '9000000' });
    ctx.db.$client.close();
    const answer = await get('/readyz');
    expect(answer.status).toBe(503);
    expect(answer.json?.failed).toEqual(['database', 'build', 'disk']);
    Object.assign(ctx.db, { $client: { close: () => {} } });
  });
});

describe('/readyz with the files in a bucket (docs/decisions/0050-object-storage.md)', () => {
  it('HEADs the marker object: not ready without it, ready with it, not ready when the bucket stops answering', async () => {
    const { startTestBucket } = await import('../../helpers/s3-server.ts');
    const { createBucketProbe } = await import('../../../server/ops/health.ts');
    const bucket = await startTestBucket();
    let closed = false;
    try {
      ctx = createTestContext({ env: { READY_MIN_FREE_MB: '1', ...bucket.env } });
      if (ctx.storage.kind !== 's3') throw new Error('expected the bucket store');
      const store = ctx.storage;
      const ready = createReadinessCheck({
        config: ctx.config,
        db: ctx.db,
        getSite: () => LIVE_SITE,
        fileCheckCacheMs: 0,
        bucket: createBucketProbe(store, { everyMs: 0 }),
      });
      expect(ready().checks.storage).toBe('the bucket has not answered yet');
      await expect.poll(() => ready().checks.storage).toBe('the bucket has no marker object: run `npm run storage -- migrate --to s3`');
      expect(ready().failed).toEqual(['storage']);
      await store.writeMarker({ complete: true, files: 0, from: 'empty', at: new Date().toISOString() });
      await expect.poll(() => ready().ready).toBe(true);
      expect(ready().checks).toEqual({ database: 'ok', build: 'ok', data_dir: 'ok', disk: 'ok', storage: 'ok' });
      await bucket.close();
      closed = true;
      await expect.poll(() => ready().checks.storage).toBe('the bucket does not answer');
    } finally {
      if (!closed) await bucket.close();
    }
  });
});
