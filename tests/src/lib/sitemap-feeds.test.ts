import fc from 'fast-check';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { absolutizeHtml, newsFeed, renderJsonFeed, renderRss, sectionFeed, FEED_MAX_ITEMS } from '../../../src/lib/feeds.ts';
import { latestUpdate, renderRobots, renderSitemap, sitemapUrls, SITEMAP_PRIORITY } from '../../../src/lib/sitemap.ts';
import type { PostEntry, SiteSnapshot } from '../../../common/snapshot-schema.ts';
import { escapeXml, isoDay, xmlCdata } from '../../../common/xml.ts';

const fixture = JSON.parse(fs.readFileSync(new URL('../../fixtures/snapshot.json', import.meta.url), 'utf8')) as SiteSnapshot;
const render = (markdown: string) => `<p>${markdown.replace(/</g, '&lt;')}</p>`;

describe('xml helpers', () => {
  it('escapes markup and drops characters XML forbids', () => {
    expect(escapeXml(`a<b>&"c"'d'\u0000\u0008e`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;e');
    expect(escapeXml('tab\tnew\nline')).toBe('tab\tnew\nline');
    // Lone surrogates and the two non-characters of the basic plane are forbidden too; a pair is a character.
    expect(escapeXml('a\uD800b\uDC00c\uFFFEd\uFFFFe \u{1F600} <&>')).toBe('abcde \u{1F600} &lt;&amp;&gt;');
    expect(escapeXml('no markup at all')).toBe('no markup at all');
    expect(escapeXml('<<>>""')).toBe('&lt;&lt;&gt;&gt;&quot;&quot;');
  });

  it('escapes exactly as the plain rule says, whatever the text', () => {
    const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
    // eslint-disable-next-line no-control-regex
    const forbidden = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), fc.constantFrom('', '<p>', '&amp;', '"\'', '\u0001', '\uD83D'), (text, extra) => {
        const input = `${extra}${text}${extra}`;
        expect(escapeXml(input)).toBe(input.replace(forbidden, '').replace(/[&<>"']/g, (char) => entities[char] ?? char));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps "]]>" from ending a CDATA section early, and drops what XML forbids there too', () => {
    expect(xmlCdata('<p>a]]>b</p>\u0000')).toBe('<![CDATA[<p>a]]]]><![CDATA[>b</p>]]>');
  });

  it('gives the UTC day of a date', () => {
    expect(isoDay('2026-01-05T23:30:00.000-02:00')).toBe('2026-01-06');
    expect(isoDay('garbage')).toBeUndefined();
    expect(latestUpdate(['2026-01-01T00:00:00Z', 'bad', '2026-02-01T00:00:00Z', '2025-12-01T00:00:00Z'])).toBe('2026-02-01T00:00:00Z');
    expect(latestUpdate([])).toBeUndefined();
  });
});

describe('the sitemap', () => {
  const urls = sitemapUrls({ ...fixture, site: { ...fixture.site, url: 'https://example.com/' } });
  const find = (loc: string) => urls.find((url) => url.loc === `https://example.com${loc}`);

  it('lists the fixed pages, every section at 0.8 and every post at 0.6 under its section with the slug as anchor', () => {
    for (const loc of ['/', '/news', '/documentation', '/tutorials', '/downloads', '/contact']) expect(find(loc), loc).toBeDefined();
    const sections = Object.values(fixture.namespaces).flat();
    const posts = sections.flatMap((section) => section.posts);
    expect(urls.filter((url) => url.priority === SITEMAP_PRIORITY.post)).toHaveLength(posts.length);
    expect(find('/news/company-news')).toEqual({ loc: 'https://example.com/news/company-news', priority: 0.8, lastmod: '2026-02-20' });
    expect(find('/news/company-news#trade-fair-dates')).toEqual({
      loc: 'https://example.com/news/company-news#trade-fair-dates',
      priority: 0.6,
      lastmod: '2026-02-20',
    });
    expect(find('/news/events')).toEqual({ loc: 'https://example.com/news/events', priority: 0.8, lastmod: '2026-02-11' });
    expect(find('/')!.lastmod).toBe('2026-02-03');
    expect(find('/downloads')!.lastmod).toBe('2026-01-05');
    expect(find('/contact')!.lastmod).toBeUndefined();
  });

  it('renders valid sitemap XML with escaped locations', () => {
    const xml = renderSitemap([
      { loc: 'https://example.com/a?b=1&c=2', priority: 0.6, lastmod: '2026-01-01' },
      { loc: 'https://example.com/', priority: 1 },
    ]);
    expect(xml).toContain('<url><loc>https://example.com/a?b=1&amp;c=2</loc><lastmod>2026-01-01</lastmod><priority>0.6</priority></url>');
    expect(xml).toContain('<url><loc>https://example.com/</loc><priority>1.0</priority></url>');
  });

  it('has robots.txt point to it', () => {
    expect(renderRobots('https://example.com/')).toBe(
      'User-agent: *\nDisallow: /admin\nDisallow: /dashboard\nDisallow: /api/\n\nSitemap: https://example.com/sitemap.xml\n',
    );
  });
});

describe('the feeds', () => {
  it('list news newest first with links to the post anchors', () => {
    const feed = newsFeed(fixture, render);
    expect(feed.items.map((item) => item.title)).toEqual(['Trade fair dates', 'New office in Leeds', 'CMM Suite 9 released']);
    expect(feed.items[0]).toMatchObject({ url: 'http://localhost:4321/news/company-news#trade-fair-dates', category: 'Company news' });
    expect(feed.items[2]!.author).toBe('Ada Admin');
    expect(feed.feedUrl).toBe('http://localhost:4321/news/rss.xml');
  });

  it('escape titles and bodies so that no markup or CDATA end can break out', () => {
    const post: PostEntry = {
      id: 7,
      title: 'Tom & Jerry <b>',
      title_slug: 'tom-jerry',
      body: 'x ]]> y',
      display_order: 0,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      author: null,
      file: null,
    };
    const snapshot: SiteSnapshot = {
      ...fixture,
      namespaces: { ...fixture.namespaces, news: [{ id: 1, title: 'S & S', title_slug: 's', order: 0, updated_at: '', posts: [post] }] },
    };
    const rss = renderRss(sectionFeed(snapshot, 'news', snapshot.namespaces.news[0]!, (markdown) => `<p>${markdown}</p>`));
    expect(rss).toContain('<title>Tom &amp; Jerry &lt;b&gt;</title>');
    expect(rss).toContain('<content:encoded>&lt;p&gt;x ]]&gt; y&lt;/p&gt;</content:encoded>');
    expect(rss).not.toContain('<author>');
    const json = JSON.parse(
      renderJsonFeed(
        newsFeed(snapshot, (markdown) => `<p>${markdown}</p>`),
        'https://x/feed.json',
      ),
    ) as { items: { title: string; content_html: string }[] };
    expect(json.items[0]).toMatchObject({ title: 'Tom & Jerry <b>', content_html: '<p>x ]]> y</p>' });
  });

  it('keep at most the newest posts', () => {
    const posts = Array.from({ length: FEED_MAX_ITEMS + 5 }, (_, index): PostEntry => ({
      id: index + 1,
      title: `P${index}`,
      title_slug: `p${index}`,
      body: '',
      display_order: index,
      created_at: new Date(Date.UTC(2026, 0, 1) + index * 86_400_000).toISOString(),
      updated_at: '',
      author: null,
      file: null,
    }));
    const snapshot: SiteSnapshot = {
      ...fixture,
      namespaces: { ...fixture.namespaces, news: [{ id: 1, title: 'S', title_slug: 's', order: 0, updated_at: '', posts }] },
    };
    let rendered = 0;
    const feed = newsFeed(snapshot, (markdown) => {
      rendered += 1;
      return render(markdown);
    });
    expect(feed.items).toHaveLength(FEED_MAX_ITEMS);
    expect(feed.items[0]!.title).toBe(`P${FEED_MAX_ITEMS + 4}`);
    // Only the posts it holds are rendered (a build's news feed chooses 50 of every news post).
    expect(rendered).toBe(FEED_MAX_ITEMS);
  });

  it('make root-relative links and images absolute', () => {
    const html =
      '<a href="/downloads">x</a><img src="/media/a.png" srcset="/media/a.png 480w, /media/b.png 1200w"><a href="//cdn.example/x">y</a><a href="#fn1">z</a><a href="https://e.com/">w</a>';
    expect(absolutizeHtml(html, 'https://example.com/')).toBe(
      '<a href="https://example.com/downloads">x</a><img src="https://example.com/media/a.png" srcset="https://example.com/media/a.png 480w, https://example.com/media/b.png 1200w"><a href="//cdn.example/x">y</a><a href="#fn1">z</a><a href="https://e.com/">w</a>',
    );
  });
});
