// Incremental publishing (docs/decisions/0044-incremental-publish.md) against the real Astro pipeline: after a
// series of edits of every kind, each published incrementally (only the affected routes rendered with the
// kept build's bundle), the live build must equal a full build of the same snapshot, byte for byte. Slow
// (real builds), so it lives in a file of its own.
import { CODE_VERSION_FILE } from '../../../server/publish/code-version.ts';
import { SEARCH_INDEXED_FILE } from '../../../server/publish/build-dirs.ts';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deletePost, deleteSection, insertPost, insertSection, updatePost, updateSection } from '../../../server/features/content/queries.ts';
import { insertDownloadItem } from '../../../server/features/downloads/queries.ts';
import { updateHomeSection } from '../../../server/features/home/queries.ts';
import { createAstroBuildRunner } from '../../../server/publish/build-runner.ts';
import { exportSnapshot, writeSnapshot } from '../../../server/publish/export-snapshot.ts';
import { createPublisher } from '../../../server/publish/publisher.ts';
import type { Publisher } from '../../../server/publish/types.ts';
import { loadStaticSite, type StaticSite } from '../../../server/static/static-site.ts';
import { insertContentFixture } from '../../helpers/content-fixture.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

const BUILD_TIMEOUT = 240_000;

let ctx: TestContext;
let fixture: ReturnType<typeof insertContentFixture>;
let publisher: Publisher;
let site: StaticSite | null = null;

beforeAll(async () => {
  ctx = createTestContext();
  fixture = insertContentFixture(ctx.db);
  publisher = createPublisher({
    config: ctx.config,
    db: ctx.db,
    log: ctx.log,
    runBuild: createAstroBuildRunner({ log: ctx.log }),
    onLive: async (dir) => {
      site = await loadStaticSite(dir, { previous: site });
    },
  });
});
afterAll(async () => {
  await publisher?.whenIdle();
  ctx?.cleanup();
});

async function publish(reason: string) {
  publisher.schedule(reason);
  await publisher.whenIdle();
  const status = publisher.status();
  expect(status.state, status.lastFailure?.log).toBe('idle');
  return status;
}

/**
 * Every file of a build but the search index, the compressed forms the loader writes and the code version the
 * publisher records (a dot-file nobody serves, code-version.ts), path → bytes.
 */
function pagesOf(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const file of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]) {
    const full = path.join(dir, file);
    if (
      file.startsWith('pagefind') ||
      file.endsWith('.br') ||
      file.endsWith('.gz') ||
      file === CODE_VERSION_FILE ||
      file === SEARCH_INDEXED_FILE ||
      !fs.statSync(full).isFile()
    )
      continue;
    files.set(file, fs.readFileSync(full));
  }
  return files;
}

const rendered = () => ctx.logLines.filter((line) => line.includes('rendered') && line.includes('route(s)'));
const at = () => new Date().toISOString();

describe('an incremental publish', () => {
  it(
    'after edits of every kind, serves what a full build of the same snapshot makes, byte for byte',
    async () => {
      await publish('first build');
      const news = fixture.sections.releases;
      const post = fixture.posts.first;
      const edits: [string, () => void][] = [
        [
          'a post body',
          () =>
            updatePost(
              ctx.db,
              'news',
              post.id,
              { ...post, published: true, uploaded_file_id: post.uploaded_file_id, body: 'Edited body $x^2$.' },
              { regenerateSlug: false, atIso: at() },
            ),
        ],
        [
          'a post title',
          () =>
            updatePost(
              ctx.db,
              'news',
              post.id,
              { ...post, published: true, uploaded_file_id: post.uploaded_file_id, title: 'Renamed release notes', body: 'Edited body $x^2$.' },
              { regenerateSlug: false, atIso: at() },
            ),
        ],
        [
          'a section title and order',
          () => updateSection(ctx.db, 'news', news.id, { title: 'Release history', order: 9 }, { regenerateSlug: false, atIso: at() }),
        ],
        [
          'a new section with a post',
          () => {
            const added = insertSection(ctx.db, 'documentation', { title: 'Getting started', order: 1 });
            insertPost(ctx.db, 'documentation', {
              section_id: added.id,
              title: 'Install',
              body: 'Run the installer.',
              published: true,
              display_order: 1,
              user_id: null,
            });
          },
        ],
        ['a home section', () => updateHomeSection(ctx.db, fixture.home.id, { title: 'Measuring made simple', body: 'We measure *carefully*.', order: 1 })],
        ['a release', () => insertDownloadItem(ctx.db, { title: 'CMM Suite 10', body: 'Newer.', release: '10.0', is_current: 0, downloadable: 0 })],
        [
          'a post deleted and an empty section removed',
          () => {
            deletePost(ctx.db, 'news', fixture.posts.second.id);
            deletePost(ctx.db, 'news', fixture.posts.draft.id);
            const empty = insertSection(ctx.db, 'tutorials', { title: 'Soon', order: 1 });
            deleteSection(ctx.db, 'tutorials', empty.id);
            deleteSection(ctx.db, 'news', fixture.sections.later.id);
          },
        ],
      ];
      for (const [what, edit] of edits) {
        const before = rendered().length;
        edit();
        await publish(`edit: ${what}`);
        // Each edit went live through the kept renderer, not a full build.
        expect(rendered().length, `the edit of ${what} was not published incrementally`).toBe(before + 1);
      }
      const live = publisher.status().currentBuildId;
      expect(live).not.toBeNull();
      // The search index followed the pages ("Search updated").
      expect(publisher.status().search).toBe('updated');
      expect(fs.existsSync(path.join(ctx.config.buildsDir, live ?? '', 'pagefind', 'pagefind.js'))).toBe(true);

      // A full build of the same snapshot, by a runner that keeps nothing, in a directory of its own.
      const contentDir = path.join(ctx.config.dataDir, 'full-content');
      const outDir = path.join(ctx.config.dataDir, 'full-build');
      writeSnapshot(contentDir, exportSnapshot(ctx.db, ctx.config));
      const full = await createAstroBuildRunner({ pagefind: false, incremental: false })({ id: 'full', outDir, contentDir, config: ctx.config });
      expect(full.ok, full.log).toBe(true);

      const incremental = pagesOf(path.join(ctx.config.buildsDir, live ?? ''));
      const reference = pagesOf(outDir);
      expect([...incremental.keys()].sort()).toEqual([...reference.keys()].sort());
      const differing = [...reference].filter(([file, bytes]) => !incremental.get(file)?.equals(bytes)).map(([file]) => file);
      expect(differing).toEqual([]);
    },
    BUILD_TIMEOUT,
  );
});
