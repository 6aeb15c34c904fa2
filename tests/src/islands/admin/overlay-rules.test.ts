// Small rules of the content admin overlay: what the publish status shows for each answer of
// GET /api/admin/publish, the section panel's title and picker labels, and what the image manager
// inserts into the text for an image and a video item.
import { describe, expect, it } from 'vitest';
import type { PageImage } from '../../../../src/lib/api/page-images.ts';
import type { PublishStatus } from '../../../../src/lib/api/publish.ts';
import { insertionFor } from '../../../../src/islands/admin/PageImageManager.tsx';
import { sectionOptionLabel, sectionPanelTitle } from '../../../../src/islands/admin/SectionPanel.tsx';
import { publishOutcome } from '../../../../src/stores/publish-status.ts';

const status = (state: PublishStatus['state'], extra: Partial<PublishStatus> = {}): PublishStatus => ({
  state,
  pending: false,
  search: 'updated',
  current_build_id: 'b1',
  last_success: { at: '2026-01-01T10:00:00.000Z', duration_ms: 4000, build_id: 'b1' },
  last_failure: null,
  ...extra,
});

describe('the publish status after a write', () => {
  it('keeps waiting while a build runs, then says Live or shows the failure with its log', () => {
    expect(publishOutcome(status('building'))).toBeNull();
    expect(publishOutcome(status('idle'))).toEqual({ kind: 'live', at: '2026-01-01T10:00:00.000Z', search: 'updated' });
    expect(publishOutcome(status('failed', { last_failure: { at: '2026-01-01T10:01:00.000Z', duration_ms: 900, log: 'error: bad frontmatter' } }))).toEqual({
      kind: 'failed',
      log: 'error: bad frontmatter',
    });
  });
});

describe('the section panel', () => {
  it('is titled after the screen, exactly as docs/product/reading.md#posts-screens on tutorials', () => {
    expect(sectionPanelTitle('tutorials')).toBe('Add/edit/delete Tutorial Sections');
    expect(sectionPanelTitle('news')).toBe('Add/edit/delete News Sections');
    expect(sectionPanelTitle('documentation')).toBe('Add/edit/delete Documentation Sections');
  });

  it('shows sections in the picker as "title - order: n"', () => {
    expect(sectionOptionLabel({ title: 'Basics', order: 3 })).toBe('Basics - order: 3');
  });
});

describe('insert into text', () => {
  const image = (fields: Partial<PageImage>): PageImage => ({
    id: 1,
    title: 'probe',
    alt: '',
    image_url: {},
    sizes: {},
    is_video: 0,
    namespace: 'news',
    created_at: '',
    updated_at: '',
    ...fields,
  });

  it('embeds an image with its alt text (its title when there is none) at the image size', () => {
    expect(
      insertionFor(
        image({ alt: 'Probe tip', image_url: { thumb: '/media/news/a-thumb.webp', image: '/media/news/a-image.webp', lg: '/media/news/a-lg.webp' } }),
      ),
    ).toBe('![Probe tip](/media/news/a-image.webp)');
    expect(insertionFor(image({ image_url: { lg: '/media/news/a-lg.webp' } }))).toBe('![probe](/media/news/a-lg.webp)');
  });

  it('embeds a video item as its player', () => {
    expect(insertionFor(image({ is_video: 1, title: 'Demo', image_url: { video: 'https://www.youtube-nocookie.com/embed/abcdefghijk' } }))).toBe(
      '<iframe src="https://www.youtube-nocookie.com/embed/abcdefghijk" title="Demo" allowfullscreen></iframe>',
    );
  });
});
