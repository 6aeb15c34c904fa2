// A media library's refused-deletion report (src/islands/admin/media/RefusedDeletions.tsx).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RefusedDeletions } from '../../../../../src/islands/admin/media/RefusedDeletions.tsx';

const render = (refused: Parameters<typeof RefusedDeletions>[0]['refused']) =>
  renderToStaticMarkup(createElement(RefusedDeletions, { refused, onDeleteAnyway: () => {} }));

describe('RefusedDeletions', () => {
  it('shows nothing when nothing was refused', () => {
    expect(render(null)).toBe('');
    expect(render({ ids: [1], report: [] })).toBe('');
  });

  it('lists why each image was kept and offers to delete them anyway', () => {
    const html = render({
      ids: [3, 4],
      report: [
        { id: 3, message: 'Image 3 is used by the post "Probes".' },
        { id: 4, message: 'Image 4 is used by the home section "Intro".' },
      ],
    });
    expect(html).toContain('<li>Image 3 is used by the post &quot;Probes&quot;.</li>');
    expect(html).toContain('<li>Image 4 is used by the home section &quot;Intro&quot;.</li>');
    expect(html).toMatch(/<button type="button"[^>]*>Delete anyway<\/button>/);
  });
});
