// The markdown pre-render (server/publish/markdown-prerender.ts, docs/decisions/0052-markdown-prerender.md):
// worker threads fill the markdown cache with exactly what the build would render, every distinct body of
// the snapshot once, and a worker that fails only leaves bodies for the build to render.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { markdownCacheFile } from '../../../common/markdown/cache-file.ts';
import { renderMarkdown } from '../../../common/markdown/index.ts';
import { renderMarkdownOutcome } from '../../../common/markdown/render.ts';
import { snapshotMarkdownBodies } from '../../../common/snapshot-bodies.ts';
import { forkMarkdownPrerender, startMarkdownPrerender, WORKER_LIMITS } from '../../../server/publish/markdown-prerender.ts';
import { exportSnapshot, writeSnapshot } from '../../../server/publish/export-snapshot.ts';
import { insertPost, insertSection } from '../../../server/features/content/queries.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

const contexts: TestContext[] = [];
afterEach(() => {
  for (const ctx of contexts.splice(0)) ctx.cleanup();
});

/** A snapshot of posts with math, tables, embedded HTML, a hostile nesting and a body used twice. */
function snapshotDir(posts: number): { contentDir: string; cacheDir: string; bodies: string[] } {
  const ctx = createTestContext();
  contexts.push(ctx);
  const section = insertSection(ctx.db, 'news', { title: 'Prerendered', order: 1 });
  const bodies = [
    'Inline $x^2$ and ==marked== text :smile:\n\n$$\\sum_{i=1}^{n} i$$',
    '| a | b |\n| --- | --- |\n| 1 | 2 |\n\n<details><summary>More</summary>\n\n**inside**\n</details>',
    `${'>'.repeat(5_000)} deep\n\n${'<div>'.repeat(20_000)}html${'</div>'.repeat(20_000)}`,
    ...Array.from({ length: posts }, (_, i) => `## Post ${i}\n\nBody ${i} with $e^{${i}}$ and a list:\n\n- one\n- two`),
  ];
  for (const [index, body] of [...bodies, bodies[0]!].entries()) {
    insertPost(ctx.db, 'news', { section_id: section.id, title: `Post ${index}`, body, published: true, display_order: index, user_id: null });
  }
  const contentDir = path.join(ctx.config.dataDir, 'content-job');
  writeSnapshot(contentDir, exportSnapshot(ctx.db, ctx.config, new Date('2026-11-27T00:00:00Z')));
  return { contentDir, cacheDir: path.join(ctx.config.dataDir, 'cache', 'markdown', 'test'), bodies };
}

const cacheEntries = (cacheDir: string) =>
  fs.existsSync(cacheDir) ? (fs.readdirSync(cacheDir, { recursive: true, encoding: 'utf8' }) as string[]).filter((name) => name.includes('.')) : [];

describe('the markdown pre-render', () => {
  it('renders every body of the snapshot into the cache, byte for byte what renderMarkdown renders, once each', async () => {
    const { contentDir, cacheDir, bodies } = snapshotDir(120);
    const all = snapshotMarkdownBodies(JSON.parse(fs.readFileSync(path.join(contentDir, 'site.json'), 'utf8')));
    // The snapshot's other bodies too (the demo's legal pages, home sections, releases), each distinct body once.
    expect(all).toEqual(expect.arrayContaining(bodies));
    expect(new Set(all).size).toBe(all.length);

    // The nested <div>s overflow the stack and fall back (renderMarkdown's own rule): where that happens depends on
    // the thread's stack, so the workers leave such a body to the build, which renders it as it always did.
    const degraded = all.filter((body) => renderMarkdownOutcome(body).degraded);
    expect(degraded).toEqual([bodies[2]]);
    const summary = await startMarkdownPrerender({ contentDir, cacheDir, threads: 2 }).done;
    expect(summary).toMatchObject({ bodies: all.length, missing: all.length, rendered: all.length - 1, threads: 2, failed: 0 });
    for (const body of all) {
      if (degraded.includes(body)) expect(fs.existsSync(markdownCacheFile(cacheDir, body))).toBe(false);
      else expect(fs.readFileSync(markdownCacheFile(cacheDir, body), 'utf8')).toBe(renderMarkdown(body));
    }
    // Only whole entries: no temp file is left behind.
    expect(cacheEntries(cacheDir).every((name) => name.endsWith('.html'))).toBe(true);
    expect(cacheEntries(cacheDir)).toHaveLength(all.length - 1);

    // A second run finds everything cached: one worker looks, renders nothing and starts no other.
    const again = await startMarkdownPrerender({ contentDir, cacheDir, threads: 2 }).done;
    expect(again).toMatchObject({ missing: 1, rendered: 0, threads: 1, failed: 0 });
  });

  it('starts one worker only when few bodies are missing', async () => {
    const { contentDir, cacheDir } = snapshotDir(3);
    const summary = await startMarkdownPrerender({ contentDir, cacheDir, threads: 4 }).done;
    expect(summary.threads).toBe(1);
    expect(summary.rendered).toBe(summary.missing - 1);
  });

  it('settles without rejecting when a worker throws or exits, leaving no entry behind', async () => {
    const { contentDir, cacheDir } = snapshotDir(3);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prerender-worker-'));
    try {
      const throwing = path.join(dir, 'throwing.mjs');
      fs.writeFileSync(throwing, "throw new Error('worker broke');\n");
      const exiting = path.join(dir, 'exiting.mjs');
      fs.writeFileSync(exiting, 'process.exit(3);\n');
      for (const file of [throwing, exiting]) {
        const summary = await startMarkdownPrerender({ contentDir, cacheDir, threads: 2, workerFile: pathToFileURL(file) }).done;
        expect(summary).toMatchObject({ threads: 1, failed: 1, rendered: 0 });
      }
      expect(cacheEntries(cacheDir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives the workers in the pre-render's own process the heap it names for them", async () => {
    // V8's heap flags are a whole process's: on the process, they overrode every worker's limits unseen.
    const { contentDir, cacheDir } = snapshotDir(0);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prerender-worker-'));
    try {
      const reporting = path.join(dir, 'reporting.mjs');
      const report = path.join(dir, 'heap.json');
      fs.writeFileSync(
        reporting,
        [
          "import fs from 'node:fs';",
          "import v8 from 'node:v8';",
          "import { parentPort } from 'node:worker_threads';",
          `fs.writeFileSync(${JSON.stringify(report)}, JSON.stringify(v8.getHeapStatistics()));`,
          "parentPort.postMessage({ type: 'done', rendered: 0 });",
        ].join('\n'),
      );
      const summary = await forkMarkdownPrerender({ contentDir, cacheDir, threads: 1, workerFile: reporting }).done;
      expect(summary).toMatchObject({ threads: 1, failed: 0 });
      const heap = JSON.parse(fs.readFileSync(report, 'utf8')) as { heap_size_limit: number };
      // V8's limit is the old space plus the young generation, as asked.
      expect(heap.heap_size_limit / 1048576).toBe(WORKER_LIMITS.maxOldGenerationSizeMb + WORKER_LIMITS.maxYoungGenerationSizeMb);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('settles when the snapshot cannot be read (the build reports that itself)', async () => {
    const { cacheDir } = snapshotDir(0);
    const summary = await startMarkdownPrerender({ contentDir: path.join(cacheDir, 'nowhere'), cacheDir, threads: 2 }).done;
    expect(summary).toMatchObject({ failed: 1, rendered: 0 });
  });
});
