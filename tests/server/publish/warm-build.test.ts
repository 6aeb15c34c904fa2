// The warm Astro build process (server/publish/warm-astro.ts): builds after the first reuse one process,
// each sees its own snapshot (never the previous build's modules), and a failed build reports its error in
// the log and is followed by a fresh process that builds again.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildChildEnv, createAstroBuildRunner } from '../../../server/publish/build-runner.ts';
import { exportSnapshot, writeSnapshot } from '../../../server/publish/export-snapshot.ts';
import { insertPost } from '../../../server/db/queries/posts.ts';
import { insertSection } from '../../../server/db/queries/sections.ts';
import { createTestContext } from '../../helpers/test-context.ts';

const BUILD_TIMEOUT = 120_000;
const ctx = createTestContext();
afterAll(() => ctx.cleanup());

const runner = createAstroBuildRunner({ pagefind: false });
let serial = 0;

async function buildWith(snapshotText: string | null) {
  serial += 1;
  const id = `warm-${serial}`;
  const contentDir = path.join(ctx.config.dataDir, 'content-jobs', id);
  const outDir = path.join(ctx.config.dataDir, 'out', id);
  fs.mkdirSync(outDir, { recursive: true });
  if (snapshotText === null) writeSnapshot(contentDir, exportSnapshot(ctx.db, ctx.config, new Date()));
  else {
    fs.mkdirSync(contentDir, { recursive: true });
    fs.writeFileSync(path.join(contentDir, 'site.json'), snapshotText);
  }
  const result = await runner({ id, outDir, contentDir, config: ctx.config });
  return { ...result, outDir };
}

const warmProcessOf = (log: string) => /warm process (\d+), build (\d+)/.exec(log)?.slice(1).map(Number) ?? [];

describe('the build environment', () => {
  it('asks mimalloc (Rolldown, the Astro compiler) not to commit whole arenas up front, and passes no secrets', () => {
    const before = process.env.SMTP_URL;
    process.env.SMTP_URL = 'smtp://user:secret@mail.example.com';
    try {
      const env = buildChildEnv({ config: ctx.config });
      expect(env.MIMALLOC_ARENA_EAGER_COMMIT).toBe('0');
      expect(env.PATH).toBe(process.env.PATH);
      expect(Object.keys(env)).not.toContain('SMTP_URL');
    } finally {
      if (before === undefined) delete process.env.SMTP_URL;
      else process.env.SMTP_URL = before;
    }
  });
});

describe('warm Astro builds', () => {
  it(
    'reuse one process, each build with its own content; a failure is logged and the next build starts afresh',
    async () => {
      const section = insertSection(ctx.db, 'news', { title: 'Warm news', order: 1 });
      const post = insertPost(ctx.db, 'news', {
        section_id: section.id,
        title: 'First warm title',
        body: 'One.',
        published: true,
        display_order: 1,
        user_id: null,
      });
      const page = (outDir: string) => fs.readFileSync(path.join(outDir, 'news', section.title_slug, 'index.html'), 'utf8');

      const first = await buildWith(null);
      expect(first.ok, first.log).toBe(true);
      expect(page(first.outDir)).toContain('First warm title');
      const [firstPid, firstCount] = warmProcessOf(first.log);
      expect(firstCount).toBe(1);
      // The build process's peak memory, for the metric site_publish_build_peak_rss_bytes: Astro alone is well over 50 MB.
      expect(first.peakRssBytes).toBeGreaterThan(50 * 1024 * 1024);
      // It runs under the lean heap limits (docs/decisions/0034-lean-publishing.md): a 768 MB old space plus
      // the young generation, below V8's default on this machine (a quarter of its memory, at least 2 GB).
      expect(first.heapLimitBytes).toBeGreaterThan(768 * 1024 * 1024);
      expect(first.heapLimitBytes).toBeLessThan(850 * 1024 * 1024);

      ctx.db.$client.prepare('update posts set title = ? where id = ?').run('Second warm title', post.id);
      const second = await buildWith(null);
      expect(second.ok, second.log).toBe(true);
      expect(warmProcessOf(second.log)).toEqual([firstPid, 2]);
      expect(page(second.outDir)).toContain('Second warm title');
      expect(page(second.outDir)).not.toContain('First warm title');

      const broken = await buildWith('{ this is not JSON');
      expect(broken.ok).toBe(false);
      expect(broken.log).toContain('is not valid JSON');

      const after = await buildWith(null);
      expect(after.ok, after.log).toBe(true);
      const [afterPid, afterCount] = warmProcessOf(after.log);
      expect(afterPid).not.toBe(firstPid);
      expect(afterCount).toBe(1);
      expect(page(after.outDir)).toContain('Second warm title');
    },
    BUILD_TIMEOUT * 2,
  );
});
