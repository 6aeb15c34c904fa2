// Stored files (issue 30; docs/decisions/0050-object-storage.md): a release file's download through the
// site's checks (login, verification, the release's gate) answered with its bytes from the local store, beside
// the same checks answered with a presigned link of a bucket (s3rver on this machine), and what fetching
// such a link costs there. With --big, that memory stays flat when a 1 GiB file goes into each store and
// comes back out: the peak resident memory above the start is printed, and more than 256 MiB fails.
//
//   node bench/storage.ts [--seconds 5] [--connections 20] [--size-kb 1024]
//   node --expose-gc bench/storage.ts --big     (also the 1 GiB memory check, about a minute and a half)
//
// s3rver stands in for the bucket: its own speed (koa, files on this disk) says nothing of a real store's,
// so the link fetch is printed for completeness, not as a target.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { DOWNLOAD_LINK_TYPE, type DownloadLink } from '../common/download-link.ts';
import { createHttpServer } from '../server/server.ts';
import type { ObjectStore } from '../server/storage/object-store/index.ts';
import { createUser, login } from '../tests/helpers/auth.ts';
import { releaseForm, type ReleaseFields } from '../tests/helpers/downloads.ts';
import { listen } from '../tests/helpers/raw-http.ts';
import { startTestBucket } from '../tests/helpers/s3-server.ts';
import { createTestContext, type TestContext } from '../tests/helpers/test-context.ts';
import autocannon from 'autocannon';
import type { LoadResult } from './lib/load.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    'size-kb': { type: 'string', default: '1024' },
    big: { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const fileBytes = Number(values['size-kb']) * 1024;
const MiB = 1024 * 1024;
const FLAT_LIMIT_BYTES = 256 * MiB;

interface Site {
  ctx: TestContext;
  base: string;
  headers: Record<string, string>;
  /** The release file's gated link (GET /api/downloads/file/{id}/{fileId}). */
  fileUrl: string;
  close(): Promise<void>;
}

/** A site on a real port with an admin signed in and one downloadable release whose file has `fileBytes`. */
async function startSite(env: Record<string, string>): Promise<Site> {
  const ctx = createTestContext({ env: { UPLOAD_MAX_BYTES: String(Math.max(fileBytes * 2, 1024 * 1024)), ...env } });
  await createUser(ctx, { email: 'bench-admin@example.com', role: 'admin' });
  const admin = await login(ctx.app, 'bench-admin@example.com');
  const form = releaseForm({ title: 'Bench release', release: '1.0.0', downloadable: '1' } as ReleaseFields, {
    name: 'bench.bin',
    content: crypto.randomBytes(fileBytes),
  });
  const uploaded = await admin.request('POST', '/api/downloads/store', form);
  if (uploaded.status !== 201) throw new Error(`the bench release could not be uploaded: ${uploaded.status}`);
  const { release } = (await uploaded.json()) as { release: { files: { url: string }[] } };
  const fileUrl = release.files[0]?.url;
  if (!fileUrl) throw new Error('the bench release has no file');
  const server = await listen(createHttpServer({ app: ctx.app, getSite: () => null, mediaDir: ctx.config.uploadsDir, storage: ctx.storage }));
  return {
    ctx,
    base: `http://127.0.0.1:${server.port}`,
    headers: { Cookie: admin.cookieHeader, 'X-XSRF-TOKEN': admin.xsrf ?? '', 'Content-Type': 'application/json', 'X-Requested-With': 'XMLHttpRequest' },
    fileUrl,
    async close() {
      await server.close();
      ctx.cleanup();
    },
  };
}

function download(site: Site, accept: string): Promise<LoadResult> {
  return load(`${site.base}${site.fileUrl}`, 'GET', { ...site.headers, Accept: accept });
}

/** The same request for `seconds` (bench/lib/load.ts's runCannon sends each of its bodies once instead). */
async function load(url: string, method: 'GET' | 'POST', headers: Record<string, string>, body?: string): Promise<LoadResult> {
  const result = await autocannon({ url, method, headers, body, connections, duration: seconds });
  return {
    requestsPerSec: result.requests.total / (result.duration || seconds),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.non2xx + result.errors + result.timeouts,
    bytesRead: result.throughput.total,
  };
}

function line(label: string, result: LoadResult, bytesEach = 0): string {
  const rate = bytesEach ? `, ${((result.requestsPerSec * bytesEach) / MiB).toFixed(0)} MiB/s` : '';
  return `${label.padEnd(58)} ${result.requestsPerSec.toFixed(0).padStart(7)} req/s  p99 ${result.p99Ms.toFixed(1).padStart(6)} ms${rate}${result.errors ? `  (${result.errors} errors)` : ''}`;
}

/** Peak resident memory above the start while `work` runs, sampled every 50 ms. */
async function peakRssGrowth(work: () => Promise<void>): Promise<number> {
  globalThis.gc?.();
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, process.memoryUsage.rss()) - start;
}

/** 1 GiB of bytes made on the way (one 1 MiB buffer reused): the source itself holds nothing. */
function gibibyteSource(): Readable {
  const chunk = crypto.randomBytes(MiB);
  let sent = 0;
  return new Readable({
    read() {
      if (sent === 1024) return void this.push(null);
      sent++;
      this.push(Buffer.from(chunk));
    },
  });
}

async function measureBigFile(label: string, store: ObjectStore): Promise<boolean> {
  const key = `private/downloads/${crypto.randomBytes(16).toString('hex')}`;
  const put = await peakRssGrowth(async () => {
    await store.putStream(key, gibibyteSource());
  });
  let read = 0;
  const get = await peakRssGrowth(async () => {
    for await (const piece of await store.read(key)) read += piece.length;
  });
  await store.delete(key);
  if (read !== 1024 * MiB) throw new Error(`${label}: read back ${read} bytes of 1 GiB`);
  const flat = put < FLAT_LIMIT_BYTES && get < FLAT_LIMIT_BYTES;
  console.log(
    `${`1 GiB through the ${label} store: peak RSS above start`.padEnd(58)} put ${(put / MiB).toFixed(0)} MiB, read ${(get / MiB).toFixed(0)} MiB ${flat ? '' : '(NOT FLAT)'}`,
  );
  return flat;
}

const bucket = await startTestBucket('bench-bucket');
const local = await startSite({});
const s3 = await startSite(bucket.env);
let ok = true;
try {
  console.log(`Release file of ${fileBytes / 1024} KiB, ${connections} connections, ${seconds} s each:`);
  console.log(line('local store: checks, then the bytes through the site', await download(local, 'application/json'), fileBytes));
  console.log(line('bucket: checks, then the presigned link (no bytes)', await download(s3, DOWNLOAD_LINK_TYPE)));
  const answer = await fetch(`${s3.base}${s3.fileUrl}`, { headers: { ...s3.headers, Accept: DOWNLOAD_LINK_TYPE } });
  const link = (await answer.json()) as DownloadLink;
  const fetched = await load(link.url, 'GET', {});
  console.log(line('  the link fetched from s3rver (a stand-in, not a target)', fetched, fileBytes));
  if (values.big) {
    ok = (await measureBigFile('local', local.ctx.storage)) && ok;
    ok = (await measureBigFile('bucket', s3.ctx.storage)) && ok;
  }
} finally {
  await local.close();
  await s3.close();
  await bucket.close();
}
process.exit(ok ? 0 : 1);
