// The wrapper of every island table (src/islands/ui/TableScroll.tsx): a region a keyboard can focus and a
// screen reader can name, by its own label or by the element that names it (a caption, a heading).
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ActionsHeader, TableScroll } from '../../../../src/islands/ui/TableScroll.tsx';

const table = createElement('table', null, createElement('tbody'));

describe('TableScroll', () => {
  it('wraps the table in a focusable region named by its label', () => {
    expect(renderToStaticMarkup(createElement(TableScroll, { label: 'API tokens', children: table }))).toBe(
      '<div class="table-scroll" role="region" tabindex="0" aria-label="API tokens"><table><tbody></tbody></table></div>',
    );
  });

  it('names the region by another element when given its id, with no label of its own', () => {
    const html = renderToStaticMarkup(createElement(TableScroll, { labelledBy: 'stats-caption', children: table }));
    expect(html).toContain('aria-labelledby="stats-caption"');
    expect(html).not.toContain('aria-label=');
  });
});

describe('ActionsHeader', () => {
  it('is a column header whose name only screen readers hear', () => {
    expect(renderToStaticMarkup(createElement(ActionsHeader))).toBe('<th scope="col" class="admin-table__action"><span class="sr-only">Actions</span></th>');
  });
});
