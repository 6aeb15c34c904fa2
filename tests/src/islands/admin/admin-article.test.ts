// The overlay's article from the API (src/islands/admin/AdminArticle.tsx) shows its attached file as the
// published page does (src/components/PostDownload.astro): the same size text, none for an unknown size.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AdminArticle } from '../../../../src/islands/admin/AdminArticle.tsx';
import type { Post } from '../../../../src/lib/api/posts.ts';

const post = (size: number) =>
  ({
    id: 7,
    namespace: 'news',
    section_id: 1,
    title: 'Probe notes',
    title_slug: 'probe-notes',
    body: 'Notes.',
    published: 1,
    display_order: 0,
    created_at: '2026-11-27T12:00:00.000Z',
    updated_at: '2026-11-27T12:00:00.000Z',
    uploaded_file_id: 3,
    uploaded_file: { id: 3, filename: 'notes.txt', description: '', size },
    user: null,
  }) as unknown as Post;

const render = (size: number) => renderToStaticMarkup(createElement(AdminArticle, { post: post(size), onEdit: () => {}, onDelete: () => {} }));

describe("the admin's article from the API", () => {
  it("shows the attached file's size as the published page does", () => {
    expect(render(15)).toContain('<span class="post-download__size">15 bytes</span>');
    expect(render(245_760)).toContain('<span class="post-download__size">240 KB</span>');
  });

  it('leaves an unknown size out', () => {
    const html = render(0);
    expect(html).toContain('<span class="post-download__name">notes.txt</span>');
    expect(html).not.toContain('post-download__size');
  });
});
