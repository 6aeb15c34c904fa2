// What a real publish writes besides the pages: from a database holding an unpublished post, the
// exporter's snapshot is built by the real runner (astro build + Pagefind), and the sitemap, robots.txt,
// feeds and search index are checked. The draft must appear nowhere: not in HTML, not in sitemap.xml,
// not in any feed, not in the (compressed) Pagefind index. One build for the whole file.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAstroBuildRunner } from '../../server/publish/build-runner.ts';
import { exportSnapshot, writeSnapshot } from '../../server/publish/export-snapshot.ts';
import type { SiteSnapshot } from '../../common/snapshot-schema.ts';
import { FIXTURE, insertContentFixture } from '../helpers/content-fixture.ts';
import { createTestContext, type TestContext } from '../helpers/test-context.ts';

const SITE = 'http://localhost:4321';

let ctx: TestContext;
let fixture: ReturnType<typeof insertContentFixture>;
let snapshot: SiteSnapshot;
let outDir: string;

beforeAll(async () => {
  ctx = createTestContext();
  fixture = insertContentFixture(ctx.db);
  // Known dates: the second post is the newest, so feeds list it first.
  const setDates = ctx.db.$client.prepare('UPDATE posts SET created_at = ?, updated_at = ? WHERE id = ?');
  setDates.run('2026-01-10T08:00:00.000Z', '2026-01-12T08:00:00.000Z', fixture.posts.first.id);
  setDates.run('2026-02-01T08:00:00.000Z', '2026-02-03T08:00:00.000Z', fixture.posts.second.id);
  setDates.run('2026-03-01T08:00:00.000Z', '2026-03-01T08:00:00.000Z', fixture.posts.draft.id);
  snapshot = exportSnapshot(ctx.db, ctx.config);
  const contentDir = path.join(ctx.dataDir, 'content-under-test');
  writeSnapshot(contentDir, snapshot);
  outDir = path.join(ctx.dataDir, 'out');
  fs.mkdirSync(outDir);
  const result = await createAstroBuildRunner()({ id: 'published-output', outDir, contentDir, config: ctx.config });
  if (!result.ok) throw new Error(`build failed:\n${result.log}`);
}, 180_000);

afterAll(() => ctx?.cleanup());

const read = (file: string) => fs.readFileSync(path.join(outDir, file), 'utf8');
const files = () => fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((file) => fs.statSync(path.join(outDir, file)).isFile());

/** Pagefind's fragments and indexes are gzip files; decompressed they hold the indexed text and words. */
function pagefindTexts(): { file: string; text: string }[] {
  return files()
    .filter((file) => /^pagefind\/(fragment|index|filter)\//.test(file))
    .map((file) => ({ file, text: zlib.gunzipSync(fs.readFileSync(path.join(outDir, file))).toString('utf8') }));
}

function fragments(): { url: string; content: string; filters: Record<string, string[]>; meta: Record<string, string> }[] {
  return pagefindTexts()
    .filter(({ file }) => file.includes('/fragment/'))
    .map(({ text }) => JSON.parse(text.slice(text.indexOf('{'))));
}

const items = (xml: string) => [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((match) => match[1] ?? '');
const tag = (xml: string, name: string) => new RegExp(`<${name}[^>]*>([\\s\\S]*?)</${name}>`).exec(xml)?.[1];

describe('a publish with an unpublished post', () => {
  it('keeps the draft out of every page, sitemap, feed and the search index', () => {
    const secrets = [FIXTURE.unpublishedPost, FIXTURE.unpublishedBodyMarker, fixture.posts.draft.title_slug];
    const textFiles = files().filter((file) => /\.(html|xml|json|txt)$/.test(file));
    expect(textFiles).toEqual(expect.arrayContaining(['index.html', 'sitemap.xml', 'robots.txt', 'news/rss.xml', 'news/feed.json', 'news/releases/rss.xml']));
    for (const file of textFiles) {
      const text = read(file);
      for (const secret of secrets) expect(text, file).not.toContain(secret);
    }
    const index = pagefindTexts();
    expect(index.length).toBeGreaterThan(3);
    for (const { file, text } of index) {
      for (const secret of [...secrets, 'merger', 'confidential']) expect(text.toLowerCase(), file).not.toContain(secret.toLowerCase());
    }
    // The published post is there, so the search would have found a leak.
    expect(index.some(({ text }) => text.includes(FIXTURE.publishedPost))).toBe(true);
  });

  it('writes a sitemap: sections at 0.8, posts at 0.6 with the slug as anchor, lastmod from the content', () => {
    const xml = read('sitemap.xml');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    const entries = [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((match) => ({
      loc: tag(match[1]!, 'loc'),
      lastmod: tag(match[1]!, 'lastmod'),
      priority: tag(match[1]!, 'priority'),
    }));
    const entry = (loc: string) => entries.find((candidate) => candidate.loc === `${SITE}${loc}`);
    for (const loc of ['/', '/news', '/documentation', '/tutorials', '/downloads', '/contact']) expect(entry(loc), loc).toBeDefined();
    expect(entry('/')!.priority).toBe('1.0');

    const releases = snapshot.namespaces.news.find((section) => section.id === fixture.sections.releases.id)!;
    const sectionDay = [releases.updated_at, '2026-01-12T08:00:00.000Z', '2026-02-03T08:00:00.000Z'].sort().at(-1)!.slice(0, 10);
    expect(entry('/news/releases')).toEqual({ loc: `${SITE}/news/releases`, lastmod: sectionDay, priority: '0.8' });
    expect(entry('/news/events')).toMatchObject({
      priority: '0.8',
      lastmod: snapshot.namespaces.news.find((section) => section.title === 'Events')!.updated_at.slice(0, 10),
    });
    expect(entry(`/news/releases#${fixture.posts.first.title_slug}`)).toEqual({
      loc: `${SITE}/news/releases#${fixture.posts.first.title_slug}`,
      lastmod: '2026-01-12',
      priority: '0.6',
    });
    expect(entry(`/news/releases#${fixture.posts.second.title_slug}`)).toMatchObject({ lastmod: '2026-02-03', priority: '0.6' });
    // Exactly the published posts, each once.
    expect(entries.filter((candidate) => candidate.priority === '0.6')).toHaveLength(2);
    expect(entries.filter((candidate) => candidate.priority === '0.8').map((candidate) => candidate.loc)).toEqual(
      expect.arrayContaining([`${SITE}/news/releases`, `${SITE}/news/events`, `${SITE}/downloads`]),
    );
  });

  it('writes robots.txt pointing to the sitemap and away from admin, dashboard and API', () => {
    const robots = read('robots.txt');
    expect(robots).toContain('User-agent: *');
    for (const rule of ['Disallow: /admin', 'Disallow: /dashboard', 'Disallow: /api/']) expect(robots).toContain(rule);
    expect(robots).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });

  it('writes the news RSS feed: published posts newest first, full HTML escaped, absolute links', () => {
    const xml = read('news/rss.xml');
    expect(xml).toContain('<rss version="2.0"');
    expect(xml).toContain(`<atom:link href="${SITE}/news/rss.xml" rel="self" type="application/rss+xml"/>`);
    const list = items(xml);
    expect(list.map((item) => tag(item, 'title'))).toEqual(['Second by display order', FIXTURE.publishedPost]);
    const first = list[1]!;
    expect(tag(first, 'link')).toBe(`${SITE}/news/releases#${fixture.posts.first.title_slug}`);
    expect(tag(first, 'pubDate')).toBe('Sat, 10 Jan 2026 08:00:00 GMT');
    expect(tag(first, 'dc:creator')).toBe('Ada Admin');
    expect(tag(first, 'category')).toBe('Releases');
    // KaTeX HTML, escaped: the element holds text only.
    const content = tag(first, 'content:encoded')!;
    expect(content).toContain('&lt;span class=&quot;katex&quot;&gt;');
    expect(content).not.toMatch(/[<>]/);
    // Each section has its feed, the empty one too.
    expect(items(read('news/releases/rss.xml'))).toHaveLength(2);
    expect(items(read('news/events/rss.xml'))).toHaveLength(0);
  });

  it('writes the news JSON Feed', () => {
    const feed = JSON.parse(read('news/feed.json')) as {
      version: string;
      feed_url: string;
      items: { title: string; url: string; content_html: string; date_published: string }[];
    };
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.feed_url).toBe(`${SITE}/news/feed.json`);
    expect(feed.items.map((item) => item.title)).toEqual(['Second by display order', FIXTURE.publishedPost]);
    expect(feed.items[1]!.content_html).toContain('<span class="katex">');
    expect(feed.items[1]!.date_published).toBe('2026-01-10T08:00:00.000Z');
  });

  it('links the feeds from the pages', () => {
    const page = read('news/releases/index.html');
    expect(page).toContain('<link rel="alternate" type="application/rss+xml" title="Dimensional Control – News" href="/news/rss.xml">');
    expect(page).toContain('<link rel="alternate" type="application/feed+json"');
    expect(page).toContain('href="/news/releases/rss.xml"');
    expect(read('index.html')).toContain('href="/news/rss.xml"');
  });

  it('indexes section pages, home and downloads for search, filterable by namespace, and not /news twice', () => {
    const byUrl = new Map(fragments().map((fragment) => [fragment.url, fragment]));
    expect([...byUrl.keys()].sort()).toEqual(['/', '/downloads/', '/news/events/', '/news/releases/']);
    expect(byUrl.get('/news/releases/')).toMatchObject({ filters: { namespace: ['news'] }, meta: { title: 'News – Releases' } });
    expect(byUrl.get('/downloads/')!.filters).toEqual({ namespace: ['downloads'] });
    expect(byUrl.get('/downloads/')!.content).toContain(FIXTURE.currentRelease);
    expect(byUrl.get('/')!.filters).toEqual({ namespace: ['home'] });
    // Only content: no navigation, sidebar, footer or notices.
    const releases = byUrl.get('/news/releases/')!.content;
    expect(releases).toContain(FIXTURE.publishedPost);
    for (const chrome of ['Contact Us', 'Skip to main content', 'RSS feed', 'You must be logged in']) expect(releases).not.toContain(chrome);
    // Math is indexed as its TeX source, not as KaTeX's rendered spans, whose text runs together
    // ('E=mc2' for E=mc^2; docs/decisions/0030-search-indexes-tex.md).
    expect(releases).toContain('E=mc^2');
    expect(releases).not.toContain('E=mc2');
  });
});
