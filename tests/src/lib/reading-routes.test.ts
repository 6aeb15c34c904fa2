import { describe, expect, it } from 'vitest';
import { isReadingPath } from '../../../src/lib/reading-routes.ts';
import { filterLabel, tidyResultUrl } from '../../../src/lib/search-filters.ts';

describe('reading pages', () => {
  it('are home, search and the posts screens with or without a section', () => {
    for (const path of ['/', '/search', '/news', '/news/', '/news/company-news', '/documentation/getting-started/', '/tutorials/basics'])
      expect(isReadingPath(path), path).toBe(true);
  });

  it('exclude island pages, downloads, feeds, files and deeper paths', () => {
    for (const path of [
      '/downloads',
      '/contact',
      '/admin',
      '/dashboard',
      '/news/rss.xml',
      '/news/feed.json',
      '/news/events/rss.xml',
      '/news/a/b',
      '/newsletter',
      '/media/x.png',
      '/reset-pasword/form',
    ])
      expect(isReadingPath(path), path).toBe(false);
  });
});

describe('search results', () => {
  it("link without Pagefind's trailing slash, keeping the anchor", () => {
    expect(tidyResultUrl('/tutorials/basics/')).toBe('/tutorials/basics');
    expect(tidyResultUrl('/tutorials/basics/#aligning-a-scan-to-cad-title')).toBe('/tutorials/basics#aligning-a-scan-to-cad-title');
    expect(tidyResultUrl('/')).toBe('/');
  });

  it('name the namespaces', () => {
    expect(filterLabel('tutorials')).toBe('Tutorials');
    expect(filterLabel('nope')).toBeUndefined();
    expect(filterLabel(undefined)).toBeUndefined();
  });
});
