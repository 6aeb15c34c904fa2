// The image managers' refused-deletion report and their tick helper (src/islands/admin/RefusedDeletions.tsx).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RefusedDeletions, withTicked } from '../../../../src/islands/admin/RefusedDeletions.tsx';

const render = (refused: Parameters<typeof RefusedDeletions>[0]['refused']) => renderToStaticMarkup(createElement(RefusedDeletions, { refused, onDeleteAnyway: () => {} }));

describe('RefusedDeletions', () => {
  it('shows nothing when nothing was refused', () => {
    expect(render(null)).toBe('');
    expect(render({ ids: [1], report: [] })).toBe('');
  });

  it('lists why each image was kept and offers to delete them anyway', () => {
    const html = render({ ids: [3, 4], report: [{ id: 3, message: 'Image 3 is used by the post "Probes".' }, { id: 4, message: 'Image 4 is used by the home section "Intro".' }] });
    expect(html).toContain('<li>Image 3 is used by the post &quot;Probes&quot;.</li>');
    expect(html).toContain('<li>Image 4 is used by the home section &quot;Intro&quot;.</li>');
    expect(html).toMatch(/<button type="button"[^>]*>Delete anyway<\/button>/);
  });
});

describe('withTicked', () => {
  it('adds and removes one id in a new set, leaving the old one as it was', () => {
    const before = new Set([1, 2]);
    expect([...withTicked(before, 3, true)]).toEqual([1, 2, 3]);
    expect([...withTicked(before, 1, false)]).toEqual([2]);
    expect([...before]).toEqual([1, 2]);
  });
});
