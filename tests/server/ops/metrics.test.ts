// GET /metrics in one process (docs/decisions/0031-observability.md): the Prometheus text parses, requests
// are labelled by route pattern (never the raw path), who may scrape (loopback, the bearer token, nobody
// else), and the counts that matter: logins by outcome, bot-check refusals, static hits, publishes, mail.
// The join across processes is in metrics-processes.test.ts.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countPendingRecipients, insertMailing, insertRecipients } from '../../../server/features/mailings/queries.ts';
import { sendSafely } from '../../../server/mail/transport.ts';
import { createOpsEndpoints } from '../../../server/ops/endpoints.ts';
import { createReadinessCheck } from '../../../server/ops/health.ts';
import { aggregateMetrics } from '../../../server/ops/metrics-aggregate.ts';
import { reportMailQueueDepth } from '../../../server/ops/metrics.ts';
import { createPublisher } from '../../../server/publish/publisher.ts';
import { createHttpServer } from '../../../server/server.ts';
import { loadStaticSite, type StaticSite } from '../../../server/static/static-site.ts';
import { createClient, createUser, login } from '../../helpers/auth.ts';
import { solveBotChallenge } from '../../helpers/botcheck.ts';
import { parsePrometheus, sample, type Samples } from '../../helpers/prometheus.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';
import { writeFixtureBuild } from '../static/fixture-build.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';

let ctx: TestContext;
let site: StaticSite;
let server: http.Server;
let port: number;

/** An address of this machine other than loopback: a scrape from it is a scrape from elsewhere. */
function externalAddress(): string {
  const address = Object.values(os.networkInterfaces())
    .flat()
    .find((info) => info && info.family === 'IPv4' && !info.internal)?.address;
  if (!address) throw new Error('this test needs a non-loopback IPv4 address');
  return address;
}

function get(target: string, options: { host?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const req = http.request({ host: options.host ?? '127.0.0.1', port, path: target, headers: options.headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function scrape(): Promise<Samples> {
  const answer = await get('/metrics');
  expect(answer.status).toBe(200);
  return parsePrometheus(answer.text);
}

beforeAll(async () => {
  ctx = createTestContext({ env: { METRICS_TOKEN: TOKEN } });
  const { buildDir, mediaDir } = writeFixtureBuild(ctx.dataDir);
  site = await loadStaticSite(buildDir);
  const getSite = () => site;
  const ops = createOpsEndpoints({
    ready: createReadinessCheck({ config: ctx.config, db: ctx.db, getSite }),
    metrics: () => aggregateMetrics([]),
    metricsToken: ctx.config.metricsToken,
  });
  server = createHttpServer({ app: ctx.app, getSite, mediaDir, ops });
  // Every interface, so the test can also arrive from a non-loopback address.
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  ctx.cleanup();
});

describe('the format', () => {
  it('is Prometheus text with the default process metrics and the HTTP histogram', async () => {
    await get('/api/user');
    const answer = await get('/metrics');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    const samples = parsePrometheus(answer.text);
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      expect(samples.has(name), name).toBe(true);
    }
    expect(sample(samples, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/user', status: '401' })).toBeGreaterThanOrEqual(1);
    expect(sample(samples, 'http_request_duration_seconds_bucket', { method: 'GET', route: '/api/user', le: '+Inf' })).toBeGreaterThanOrEqual(1);
  });
});

describe('route labels', () => {
  it('labels a parameterised route by its pattern, never by the raw path, and an unknown path by one fixed label', async () => {
    const before = await scrape();
    const client = createClient(ctx.app);
    await client.fetchCsrfCookie();
    // The label comes from the route Hono matched, whatever guard answered (here the admin guard: 401).
    expect((await client.request('DELETE', '/api/user/delete/987655')).status).toBe(401);
    // No GET route has this path: unmatched, like a path no route has.
    await get('/api/user/delete/987654');
    await get('/api/no-such-thing/987656');
    const after = await scrape();
    const pattern = { method: 'DELETE', route: '/api/user/delete/:id' };
    expect(sample(after, 'http_requests_total', pattern) - sample(before, 'http_requests_total', pattern)).toBe(1);
    expect(sample(after, 'http_requests_total', { route: 'unmatched' }) - sample(before, 'http_requests_total', { route: 'unmatched' })).toBeGreaterThanOrEqual(
      2,
    );
    const labelled = [...after.keys()].join('\n');
    for (const id of ['987654', '987655', '987656']) expect(labelled).not.toContain(id);
  });
});

describe('who may scrape', () => {
  it('answers a loopback peer, and refuses one that came through a proxy (X-Forwarded-For) with 404', async () => {
    expect((await get('/metrics')).status).toBe(200);
    const relayed = await get('/metrics', { headers: { 'X-Forwarded-For': '127.0.0.1' } });
    expect(relayed.status).toBe(404);
    expect(relayed.text).not.toContain('http_requests_total');
  });

  it('answers another address only with the bearer token, 404 otherwise', async () => {
    const host = externalAddress();
    const refused = await get('/metrics', { host });
    expect(refused.status).toBe(404);
    expect(refused.text).not.toContain('http_requests_total');
    expect((await get('/metrics', { host, headers: { Authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(404);
    expect((await get('/metrics', { host, headers: { Authorization: TOKEN } })).status).toBe(404);
    const allowed = await get('/metrics', { host, headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(allowed.status).toBe(200);
    expect(sample(parsePrometheus(allowed.text), 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });
});

describe('what is counted', () => {
  it('counts logins as ok, failed and throttled, and bot-check refusals', async () => {
    const email = 'metrics-login@example.com';
    await createUser(ctx, { email });
    const before = await scrape();
    await login(ctx.app, email);
    const client = createClient(ctx.app);
    await client.fetchCsrfCookie();
    // LOGIN_THROTTLE: five wrong passwords, then the sixth attempt is refused with 429.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const answer = await client.request('POST', '/api/auth/login', { email, password: 'wrong password', g_token: await solveBotChallenge(ctx.app) });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
    const forged = await client.request('POST', '/api/auth/login', { email: 'other@example.com', password: 'x', g_token: 'forged' });
    expect(forged.status).toBe(422);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta('site_logins_total', { outcome: 'ok' })).toBe(1);
    expect(delta('site_logins_total', { outcome: 'failed' })).toBe(6);
    expect(delta('site_logins_total', { outcome: 'throttled' })).toBe(1);
    expect(delta('site_botcheck_refusals_total', { reason: 'invalid' })).toBe(1);
  });

  it('counts the static fast path: pages (304s too), media, refused paths, without touching the API counters', async () => {
    const before = await scrape();
    const page = await get('/');
    expect(page.status).toBe(200);
    expect((await get('/', { headers: { 'If-None-Match': String(page.headers.etag) } })).status).toBe(304);
    await get('/media/none.png');
    await get('/%2e%2e/etc/passwd');
    const after = await scrape();
    const delta = (result: string) => sample(after, 'site_static_responses_total', { result }) - sample(before, 'site_static_responses_total', { result });
    expect(delta('page')).toBe(2);
    expect(delta('media')).toBe(1);
    expect(delta('not_found')).toBe(1);
    expect(sample(after, 'http_requests_total', { route: '/' })).toBe(0);
  });

  it('counts publishes by outcome with their duration, failures, and the build peak memory', async () => {
    let fail = true;
    const publisher = createPublisher({
      config: ctx.config,
      db: ctx.db,
      log: ctx.log,
      onLive: () => {},
      runBuild: async (job) => {
        fs.writeFileSync(path.join(job.outDir, 'index.html'), '<h1>home</h1>');
        return fail ? { ok: false, log: 'broken' } : { ok: true, log: '', peakRssBytes: 345_678_912 };
      },
    });
    const before = await scrape();
    publisher.schedule('first');
    await publisher.whenIdle();
    fail = false;
    publisher.schedule('second');
    await publisher.whenIdle();
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta('site_publish_duration_seconds_count', { outcome: 'failed' })).toBe(1);
    expect(delta('site_publish_duration_seconds_count', { outcome: 'ok' })).toBe(1);
    expect(delta('site_publish_failures_total')).toBe(1);
    expect(sample(after, 'site_publish_build_peak_rss_bytes')).toBe(345_678_912);
  });

  it('reports the mail queue depth and counts mails that could not be sent', async () => {
    const user = await createUser(ctx, { email: 'metrics-mailing@example.com' });
    const mailing = insertMailing(ctx.db, { title: 'News', body: 'Body', created_by: null, atIso: new Date().toISOString() });
    insertRecipients(ctx.db, mailing.id, [{ user_id: user.id, email: user.email }], Date.now());
    reportMailQueueDepth(() => countPendingRecipients(ctx.db));
    const before = await scrape();
    expect(sample(before, 'site_mail_queue_depth')).toBe(1);
    const broken = { mode: 'smtp' as const, send: () => Promise.reject(new Error('connection refused')), close: () => {}, admitAccountMail: () => true };
    expect(await sendSafely(broken, { to: 'someone@example.com', subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' }, ctx.log)).toBe(false);
    const after = await scrape();
    expect(sample(after, 'site_mail_send_failures_total', { kind: 'message' }) - sample(before, 'site_mail_send_failures_total', { kind: 'message' })).toBe(1);
  });
});
