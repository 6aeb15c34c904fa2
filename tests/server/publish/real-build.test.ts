// The real pipeline end to end: the project's own Astro pages built from a database snapshot in a temp
// DATA_DIR, served by the fast path. Slow (a few seconds a build), so all real builds live in this file.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateHomeSection } from '../../../server/features/home/queries.ts';
import { insertPost, updatePost } from '../../../server/features/content/queries.ts';
import { insertSection } from '../../../server/features/content/queries.ts';
import { markdownCacheFile } from '../../../common/markdown/cache-file.ts';
import { renderMarkdown } from '../../../common/markdown/index.ts';
import { snapshotMarkdownBodies } from '../../../common/snapshot-bodies.ts';
import { buildChildEnv } from '../../../server/publish/build-runner.ts';
import { exportSnapshot } from '../../../server/publish/export-snapshot.ts';
import { createPublisher } from '../../../server/publish/publisher.ts';
import type { Publisher } from '../../../server/publish/types.ts';
import { createHttpServer } from '../../../server/server.ts';
import { inlineScriptHashes } from '../../../server/static/inline-scripts.ts';
import { loadStaticSite, type StaticSite } from '../../../server/static/static-site.ts';
import { FIXTURE, insertContentFixture } from '../../helpers/content-fixture.ts';
import { listen, rawRequest } from '../../helpers/raw-http.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

const BUILD_TIMEOUT = 120_000;

let ctx: TestContext;
let fixture: ReturnType<typeof insertContentFixture>;
let publisher: Publisher;
let site: StaticSite | null = null;
let server: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  ctx = createTestContext();
  fixture = insertContentFixture(ctx.db);
  publisher = createPublisher({
    config: ctx.config,
    db: ctx.db,
    log: ctx.log,
    onLive: async (dir) => {
      site = await loadStaticSite(dir, { previous: site });
    },
  });
  server = await listen(createHttpServer({ app: ctx.app, getSite: () => site, mediaDir: ctx.config.uploadsDir }));
});
afterAll(async () => {
  await publisher.whenIdle();
  await server?.close();
  ctx.cleanup();
});

async function publish(reason: string) {
  publisher.schedule(reason);
  await publisher.whenIdle();
  const status = publisher.status();
  // On failure, show the build's own log: it says what broke.
  expect(status.state, status.lastFailure?.log).toBe('idle');
  return status;
}

function allHtml(dir: string): string {
  return (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((file) => file.endsWith('.html'))
    .map((file) => fs.readFileSync(path.join(dir, file), 'utf8'))
    .join('\n');
}

describe('a real publish', () => {
  it(
    'builds / from the database, keeps unpublished posts out of every page, and serves it with hashed inline scripts',
    async () => {
      const status = await publish('first build');
      expect(status.lastSuccess?.durationMs).toBeGreaterThan(0);
      const buildDir = path.join(ctx.config.buildsDir, status.currentBuildId ?? 'missing');

      const home = await rawRequest(server.port, '/', { headers: { 'Accept-Encoding': 'identity' } });
      expect(home.status).toBe(200);
      expect(home.text).toContain(FIXTURE.homeTitle);

      const html = allHtml(buildDir);
      expect(html).toContain(FIXTURE.publishedPost);
      expect(html).not.toContain(FIXTURE.unpublishedPost);
      expect(html).not.toContain(FIXTURE.unpublishedBodyMarker);
      expect(html).not.toContain(fixture.posts.draft.title_slug);

      // Whatever inline scripts Astro emitted, the page's CSP allows exactly those.
      const csp = String(home.headers['content-security-policy']);
      for (const hash of inlineScriptHashes(home.text)) expect(csp).toContain(`'${hash}'`);
      expect(csp.match(/script-src [^;]*/)?.[0]).not.toContain('unsafe-inline');

      expect(fs.existsSync(path.join(buildDir, 'pagefind', 'pagefind.js'))).toBe(true);

      // The first build's markdown cache was empty: its bodies were rendered ahead, on worker threads, and each
      // is cached (and shown) exactly as renderMarkdown renders it (docs/decisions/0052-markdown-prerender.md).
      const bodies = snapshotMarkdownBodies(exportSnapshot(ctx.db, ctx.config, new Date()));
      const report = ctx.logLines.find((line) => line.includes('markdown bodies not cached'));
      expect(report).toMatch(new RegExp(`${bodies.length} of ${bodies.length} markdown bodies not cached: ${bodies.length} rendered on [1-4] thread`));
      const cacheDir = buildChildEnv({ config: ctx.config }).MARKDOWN_CACHE_DIR ?? '';
      for (const body of bodies) expect(fs.readFileSync(markdownCacheFile(cacheDir, body), 'utf8')).toBe(renderMarkdown(body));
      expect(html).toContain(renderMarkdown(fixture.posts.first.body));
    },
    BUILD_TIMEOUT,
  );

  it(
    'republishes after a change: the new title is served from a new build',
    async () => {
      const before = publisher.status().currentBuildId;
      updateHomeSection(ctx.db, fixture.home.id, { title: 'Freshly measured title', body: 'Changed.', order: 1 });
      const status = await publish('home section changed');
      expect(status.currentBuildId).not.toBe(before);
      const home = await rawRequest(server.port, '/', { headers: { 'Accept-Encoding': 'br' } });
      expect(home.headers['content-encoding']).toBe('br');
      const page = (await rawRequest(server.port, '/')).text;
      expect(page).toContain('Freshly measured title');
      expect(page).not.toContain(FIXTURE.homeTitle);
    },
    BUILD_TIMEOUT,
  );

  it(
    'an incremental publish re-renders the pages an edit changed and keeps the others as they were',
    async () => {
      const manuals = insertSection(ctx.db, 'documentation', { title: 'Manuals', order: 1 });
      const manual = insertPost(ctx.db, 'documentation', {
        section_id: manuals.id,
        title: 'Probe manual',
        body: 'Calibrate first.',
        published: true,
        display_order: 1,
        user_id: null,
      });
      await publish('documentation added');
      const docsPage = `/documentation/${manuals.title_slug}`;
      const newsPage = `/news/${fixture.sections.releases.title_slug}`;
      const docsBefore = (await rawRequest(server.port, docsPage)).text;
      expect(docsBefore).toContain('Probe manual');

      // A news edit: its pages show it; the documentation page (copied from the last build) is unchanged.
      const { first } = fixture.posts;
      updatePost(
        ctx.db,
        'news',
        first.id,
        {
          title: 'Edited release title',
          body: first.body,
          section_id: first.section_id,
          published: true,
          display_order: first.display_order,
          uploaded_file_id: first.uploaded_file_id,
        },
        { regenerateSlug: false, atIso: new Date().toISOString() },
      );
      await publish('news post edited');
      expect((await rawRequest(server.port, newsPage)).text).toContain('Edited release title');
      expect((await rawRequest(server.port, '/news')).text).toContain('Edited release title');
      expect((await rawRequest(server.port, docsPage)).text).toBe(docsBefore);

      // And a documentation edit is never hidden by a copy of the old page.
      updatePost(
        ctx.db,
        'documentation',
        manual.id,
        { title: 'Probe manual, second edition', body: 'Calibrate twice.', section_id: manuals.id, published: true, display_order: 1, uploaded_file_id: null },
        { regenerateSlug: false, atIso: new Date().toISOString() },
      );
      await publish('documentation post edited');
      const docsAfter = (await rawRequest(server.port, docsPage)).text;
      expect(docsAfter).toContain('Probe manual, second edition');
      expect(docsAfter).toContain('Calibrate twice.');
      expect((await rawRequest(server.port, `${docsPage}/rss.xml`)).text).toContain('Probe manual, second edition');
    },
    BUILD_TIMEOUT * 3,
  );
});
