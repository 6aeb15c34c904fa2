// The snapshot is the only thing the static build sees: it must hold published content only, in the
// order the pages show it.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportSnapshot, writeSnapshot } from '../../../server/publish/export-snapshot.ts';
import { siteSnapshotSchema, type SiteSnapshot } from '../../../common/snapshot-schema.ts';
import { SNAPSHOT_FILE } from '../../../common/snapshot-types.ts';
import { FIXTURE, insertContentFixture } from '../../helpers/content-fixture.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext();
});
afterEach(() => ctx.cleanup());

describe('exportSnapshot', () => {
  it('leaves unpublished posts out entirely', () => {
    const fixture = insertContentFixture(ctx.db);
    const snapshot = exportSnapshot(ctx.db, ctx.config);
    const text = JSON.stringify(snapshot);
    expect(text).not.toContain(FIXTURE.unpublishedPost);
    expect(text).not.toContain(FIXTURE.unpublishedBodyMarker);
    const postIds = snapshot.namespaces.news.flatMap((section) => section.posts.map((post) => post.id));
    expect(postIds).not.toContain(fixture.posts.draft.id);
    expect(postIds).toContain(fixture.posts.first.id);
  });

  it('orders sections by order and posts by display_order, with author and attached file', () => {
    const fixture = insertContentFixture(ctx.db);
    const { news, documentation, tutorials } = exportSnapshot(ctx.db, ctx.config).namespaces;
    expect(news.map((section) => section.title)).toEqual(['Releases', 'Events']);
    expect(documentation).toEqual([]);
    expect(tutorials).toEqual([]);
    const [releases, events] = news;
    expect(events?.posts).toEqual([]);
    expect(releases?.posts.map((post) => post.title)).toEqual([FIXTURE.publishedPost, 'Second by display order']);
    expect(releases?.posts[0]).toMatchObject({
      title_slug: fixture.posts.first.title_slug,
      body: 'Now with $E=mc^2$.',
      display_order: 1,
      author: { name: 'Ada Admin', role: 'admin' },
      file: { id: fixture.file.id, filename: 'notes.pdf', description: 'Release notes', size: 1234 },
    });
    expect(releases?.posts[1]?.file).toBeNull();
  });

  it('exports home sections by order with parsed image urls and sizes, and downloads current first', () => {
    insertContentFixture(ctx.db);
    const snapshot = exportSnapshot(ctx.db, ctx.config, new Date('2026-02-03T04:05:06.000Z'));
    expect(snapshot.generated_at).toBe('2026-02-03T04:05:06.000Z');
    expect(snapshot.site).toEqual({ name: ctx.config.siteName, url: ctx.config.siteUrl });
    expect(snapshot.home.map((section) => section.title)).toEqual([FIXTURE.homeTitle, FIXTURE.secondHomeTitle]);
    expect(snapshot.home[0]?.images).toEqual([
      {
        id: expect.any(Number),
        title: 'Probe',
        alt: 'A probe touching a part',
        urls: { thumb: '/media/home/a-thumb.webp', lg: '/media/home/a-lg.webp' },
        sizes: { thumb: { width: 480, height: 320 }, lg: { width: 1200, height: 800 } },
      },
    ]);
    expect(snapshot.home[1]?.images).toEqual([]);
    expect(snapshot.downloads.map((item) => [item.title, item.is_current, item.downloadable])).toEqual([
      [FIXTURE.currentRelease, true, true],
      [FIXTURE.previousRelease, false, false],
    ]);
    expect(snapshot.downloads[0]).toMatchObject({ filename: 'cmm-9.zip', release: '9.0', size: 42 });
  });

  it('writes what the schema accepts, with exactly the fields it lists', () => {
    insertContentFixture(ctx.db);
    const file = writeSnapshot(path.join(ctx.dataDir, 'snap'), exportSnapshot(ctx.db, ctx.config));
    const written: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    const parsed = siteSnapshotSchema.parse(written);
    // Nothing was dropped: the export holds exactly the fields the schema lists, no database extras.
    expect(parsed).toEqual(written);
    expect(parsed.namespaces.news[0]?.posts[0]).not.toHaveProperty('section_id');
    expect(parsed.home[0]).not.toHaveProperty('created_at');
    expect(parsed.downloads[0]).not.toHaveProperty('stored_name');
  });

  it('refuses to export a value the site would refuse, naming the field', () => {
    const fixture = insertContentFixture(ctx.db);
    ctx.db.$client.prepare('UPDATE posts SET created_at = ? WHERE id = ?').run('yesterday', fixture.posts.first.id);
    expect(() => exportSnapshot(ctx.db, ctx.config)).toThrow(
      /^the exported snapshot is not a valid site snapshot[^]*\n {2}namespaces\.news\[0\]\.posts\[0\]\.created_at: Invalid ISO datetime/,
    );
  });

  it('survives damaged image JSON instead of failing the publish', () => {
    const fixture = insertContentFixture(ctx.db);
    ctx.db.$client
      .prepare('UPDATE home_images SET urls = ?, sizes = ? WHERE home_section_id = ?')
      .run('{not json', '{"lg": {"width": "wide"}, "thumb": {"width": 480, "height": 320}}', fixture.home.id);
    const image = exportSnapshot(ctx.db, ctx.config).home[0]?.images[0];
    expect(image?.urls).toEqual({});
    expect(image?.sizes).toEqual({ thumb: { width: 480, height: 320 } });
  });
});

describe('writeSnapshot', () => {
  it('writes site.json by rename, leaving no temp files behind', () => {
    insertContentFixture(ctx.db);
    const dir = path.join(ctx.dataDir, 'snap');
    const snapshot = exportSnapshot(ctx.db, ctx.config);
    writeSnapshot(dir, snapshot);
    writeSnapshot(dir, snapshot);
    expect(fs.readdirSync(dir)).toEqual([SNAPSHOT_FILE]);
    expect(JSON.parse(fs.readFileSync(path.join(dir, SNAPSHOT_FILE), 'utf8')) as SiteSnapshot).toEqual(snapshot);
  });
});
