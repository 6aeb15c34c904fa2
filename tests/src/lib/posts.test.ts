import { describe, expect, it } from 'vitest';
import { postsRoutes, sidebarPosts, sortSections } from '../../../src/lib/posts.ts';
import type { PostEntry, SectionEntry } from '../../../common/snapshot-schema.ts';

const post = (id: number, display_order: number): PostEntry => ({
  id,
  title: `Post ${id}`,
  title_slug: `post-${id}`,
  body: '',
  display_order,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  author: null,
  file: null,
});
const section = (id: number, order: number, posts: PostEntry[] = []): SectionEntry => ({
  id,
  title: `S${id}`,
  title_slug: `s${id}`,
  order,
  updated_at: '',
  posts,
});

describe('posts screens', () => {
  it('sorts sections by order and posts by display order, ids breaking ties', () => {
    const sorted = sortSections([section(3, 2), section(1, 1, [post(9, 2), post(8, 1), post(7, 1)]), section(2, 1)]);
    expect(sorted.map((s) => s.id)).toEqual([1, 2, 3]);
    expect(sorted[0]!.posts.map((p) => p.id)).toEqual([7, 8, 9]);
  });

  // Issue 28, 2.10: news listed its posts reversed in the sidebar, the opposite of its articles.
  it('lists every namespace’s posts in the sidebar in the order of the articles', () => {
    const posts = [post(1, 0), post(2, 1), post(3, 2)];
    expect(sidebarPosts('news', posts).map((p) => p.id)).toEqual([1, 2, 3]);
    expect(sidebarPosts('documentation', posts).map((p) => p.id)).toEqual([1, 2, 3]);
    expect(sidebarPosts('tutorials', posts).map((p) => p.id)).toEqual([1, 2, 3]);
    expect(posts.map((p) => p.id)).toEqual([1, 2, 3]);
  });

  it('routes the namespace page and one page per section', () => {
    expect(postsRoutes('tutorials', [section(1, 0), section(2, 1)])).toEqual([
      { params: { section: undefined }, props: { namespace: 'tutorials', sectionSlug: undefined } },
      { params: { section: 's1' }, props: { namespace: 'tutorials', sectionSlug: 's1' } },
      { params: { section: 's2' }, props: { namespace: 'tutorials', sectionSlug: 's2' } },
    ]);
  });
});
