import { describe, expect, it } from 'vitest';
import { absoluteUrl, canonicalUrl, formatBytes, formatDate, markdownExcerpt, pageTitle, topLevelSection } from '../../../src/lib/page-meta.ts';

describe('page meta', () => {
  it('titles pages "<site> <year> – <page>"', () => {
    expect(pageTitle('Dimensional Control', 'News: Events', 2026)).toBe('Dimensional Control 2026 – News: Events');
  });

  it('builds canonical links without trailing slashes, whatever the site URL looks like', () => {
    expect(canonicalUrl('http://localhost:4321', '/')).toBe('http://localhost:4321/');
    expect(canonicalUrl('http://localhost:4321/', '/news/events/')).toBe('http://localhost:4321/news/events');
    expect(canonicalUrl('https://example.com/site/', 'news')).toBe('https://example.com/site/news');
    expect(canonicalUrl('https://example.com', '//news//')).toBe('https://example.com/news');
  });

  it('finds the top-level section for the nav bar', () => {
    expect(topLevelSection('/')).toBe('/');
    expect(topLevelSection('/news/events/')).toBe('/news');
    expect(topLevelSection('/reset-pasword/form')).toBe('/reset-pasword');
  });

  it('makes absolute image URLs', () => {
    expect(absoluteUrl('https://example.com/', '/media/a.png')).toBe('https://example.com/media/a.png');
    expect(absoluteUrl('https://example.com', 'https://cdn.example/a.png')).toBe('https://cdn.example/a.png');
  });

  it('turns markdown into a plain description', () => {
    expect(markdownExcerpt('# Title\n\nSome **bold** and [a link](/x), `code`, $x^2$ and ==marks== :smile:.\n\n```js\nhidden()\n```')).toBe(
      'Title Some bold and a link, code, and marks .',
    );
    const long = markdownExcerpt('word '.repeat(100), 40);
    expect(long.length).toBeLessThanOrEqual(40);
    expect(long.endsWith('word…')).toBe(true);
  });

  it('formats dates (UTC) and sizes', () => {
    expect(formatDate('2026-01-05T23:30:00.000Z')).toBe('5 January 2026');
    expect(formatDate('not a date')).toBe('not a date');
    expect(formatBytes(0)).toBe('');
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(245_760)).toBe('240 KB');
    expect(formatBytes(1_572_864)).toBe('1.5 MB');
  });
});
