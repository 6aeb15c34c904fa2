// A worker thread of the markdown pre-render (markdown-prerender.ts), never started by hand. It reads the
// build's snapshot, lists its bodies the way every worker does (snapshotMarkdownBodies: same file, same
// order), then takes body after body by a counter the workers share and renders each one the cache lacks
// into it. The first worker also counts what is missing, so the pre-render only starts more workers (and
// only loads the markdown pipeline) when there is something to render.
import fs from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { isMarkdownCached } from '../../common/markdown/cache-file.ts';
import { snapshotMarkdownBodies } from '../../common/snapshot-bodies.ts';
import type { prerenderMarkdown } from '../../common/markdown/cache.ts';
import type { SiteSnapshot } from '../../common/snapshot-schema.ts';
import { SNAPSHOT_FILE } from '../../common/snapshot-types.ts';
import type { PrerenderWorkerData, PrerenderWorkerMessage } from './markdown-prerender.ts';

const { contentDir, cacheDir, next, counts } = workerData as PrerenderWorkerData;
const post = (message: PrerenderWorkerMessage) => parentPort?.postMessage(message);

// Not validated here: the build parses the snapshot itself and fails on a bad one; a shape this walk cannot
// follow only ends this worker, and the build renders what is missing.
const snapshot = JSON.parse(fs.readFileSync(path.join(contentDir, SNAPSHOT_FILE), 'utf8')) as SiteSnapshot;
const bodies = snapshotMarkdownBodies(snapshot);
if (counts) post({ type: 'missing', bodies: bodies.length, missing: bodies.filter((body) => !isMarkdownCached(body, cacheDir)).length });

let rendered = 0;
// Loaded on the first body the cache lacks: a build whose bodies are all cached never pays for the pipeline.
let prerender: typeof prerenderMarkdown | undefined;
for (let index = Atomics.add(next, 0, 1); index < bodies.length; index = Atomics.add(next, 0, 1)) {
  const body = bodies[index]!;
  if (isMarkdownCached(body, cacheDir)) continue;
  prerender ??= (await import('../../common/markdown/cache.ts')).prerenderMarkdown;
  try {
    if (prerender(body, cacheDir) === 'rendered') rendered++;
  } catch {
    // renderMarkdown threw (not a stack overflow, which it handles): the build renders this body itself and
    // meets the same error, as it would without the pre-render.
  }
}
post({ type: 'done', rendered });
