// A full build with an empty markdown cache fills it on worker threads before its pages render
// (docs/decisions/0052-markdown-prerender.md). The pages are the same bytes with the pre-render, without it
// and with a worker that fails, and the cache ends up holding every body exactly as renderMarkdown renders it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { markdownCacheFile } from '../../../common/markdown/cache-file.ts';
import { renderMarkdown } from '../../../common/markdown/index.ts';
import { snapshotMarkdownBodies } from '../../../common/snapshot-bodies.ts';
import { buildChildEnv, createAstroBuildRunner, type AstroBuildRunnerOptions } from '../../../server/publish/build-runner.ts';
import { exportSnapshot, writeSnapshot } from '../../../server/publish/export-snapshot.ts';
import { insertPost, insertSection } from '../../../server/features/content/queries.ts';
import { createTestContext } from '../../helpers/test-context.ts';

const BUILD_TIMEOUT = 120_000;
const ctx = createTestContext();
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'prerender-build-'));
afterAll(() => {
  ctx.cleanup();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const cacheDir = buildChildEnv({ config: ctx.config }).MARKDOWN_CACHE_DIR!;

async function buildWithEmptyCache(id: string, contentDir: string, prerender: AstroBuildRunnerOptions['prerender']) {
  fs.rmSync(cacheDir, { recursive: true, force: true });
  const outDir = path.join(scratch, id);
  const result = await createAstroBuildRunner({ pagefind: false, incremental: false, prerender })({ id, outDir, contentDir, config: ctx.config });
  expect(result.ok, result.log).toBe(true);
  const pages = new Map<string, string>();
  for (const file of fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' }) as string[]) {
    if (/\.(html|xml|json)$/.test(file)) pages.set(file, fs.readFileSync(path.join(outDir, file), 'utf8'));
  }
  return { log: result.log, pages };
}

it(
  'fills the cache with every body before the pages render; a failing worker or none gives the same pages',
  async () => {
    const section = insertSection(ctx.db, 'news', { title: 'Prerendered news', order: 1 });
    const bodies = [
      'Inline $x^2$, ==marked== and :smile:\n\n$$\\int_0^1 x\\,dx$$',
      `${'<div>'.repeat(3_000)}too deep${'</div>'.repeat(3_000)}`,
      ...Array.from({ length: 30 }, (_, i) => `## Part ${i}\n\n| n | n² |\n| - | - |\n| ${i} | ${i * i} |\n\n\`code ${i}\``),
    ];
    for (const [index, body] of bodies.entries()) {
      insertPost(ctx.db, 'news', { section_id: section.id, title: `Post ${index}`, body, published: true, display_order: index, user_id: null });
    }
    const contentDir = path.join(scratch, 'content');
    writeSnapshot(contentDir, exportSnapshot(ctx.db, ctx.config, new Date('2026-11-27T00:00:00Z')));
    const all = snapshotMarkdownBodies(JSON.parse(fs.readFileSync(path.join(contentDir, 'site.json'), 'utf8')));

    const withPrerender = await buildWithEmptyCache('with', contentDir, undefined);
    expect(withPrerender.log).toMatch(new RegExp(`\\[markdown\\] ${all.length} of ${all.length} bodies not cached: ${all.length - 1} rendered`));
    // Every body is in the cache, byte for byte renderMarkdown's (the one the workers left, by the build).
    for (const body of all) expect(fs.readFileSync(markdownCacheFile(cacheDir, body), 'utf8')).toBe(renderMarkdown(body));
    expect(withPrerender.pages.get(path.join('news', section.title_slug, 'index.html'))).toContain('too deep');

    const without = await buildWithEmptyCache('without', contentDir, { threads: 0 });
    expect(without.log).not.toContain('[markdown]');

    const failingWorker = path.join(scratch, 'failing-worker.mjs');
    fs.writeFileSync(failingWorker, "throw new Error('the worker broke');\n");
    const failed = await buildWithEmptyCache('failed', contentDir, { workerFile: failingWorker });
    expect(failed.log).toContain('1 worker(s) failed');
    for (const body of all) expect(fs.readFileSync(markdownCacheFile(cacheDir, body), 'utf8')).toBe(renderMarkdown(body));

    expect([...withPrerender.pages.keys()].sort()).toEqual([...without.pages.keys()].sort());
    for (const [file, text] of without.pages) {
      expect(withPrerender.pages.get(file), file).toBe(text);
      expect(failed.pages.get(file), file).toBe(text);
    }
  },
  BUILD_TIMEOUT * 3,
);
