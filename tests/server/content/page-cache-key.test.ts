// The incremental build copies a posts page from the previous build when its cacheKey is unchanged: a key
// that missed something the page shows would leave stale HTML live.
import { describe, expect, it } from 'vitest';
import { postsCacheKey } from '../../../src/lib/page-cache-key.ts';
import type { SectionEntry } from '../../../common/snapshot-schema.ts';

const site = { name: 'Dimensional Control', url: 'https://example.com' };
const section = (title: string, postTitle: string) =>
  ({ id: 1, title, title_slug: 'a', order: 0, posts: [{ id: 7, title: postTitle, body: 'Body' }] }) as unknown as SectionEntry;

describe('postsCacheKey', () => {
  const base = postsCacheKey(site, [section('Guides', 'First')], 2026);

  it('is stable for the same content', () => {
    expect(postsCacheKey(site, [section('Guides', 'First')], 2026)).toBe(base);
  });

  it('changes with a post, a section, the site or the year', () => {
    expect(postsCacheKey(site, [section('Guides', 'Edited')], 2026)).not.toBe(base);
    expect(postsCacheKey(site, [section('Manuals', 'First')], 2026)).not.toBe(base);
    expect(postsCacheKey(site, [section('Guides', 'First'), section('More', 'Second')], 2026)).not.toBe(base);
    expect(postsCacheKey({ ...site, name: 'Renamed' }, [section('Guides', 'First')], 2026)).not.toBe(base);
    expect(postsCacheKey(site, [section('Guides', 'First')], 2027)).not.toBe(base);
  });
});
