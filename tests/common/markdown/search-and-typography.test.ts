// Issue 14: rendered math is hidden from the site search (its TeX source stays), and titles get the same
// typographic punctuation as bodies.
import { describe, expect, it } from 'vitest';
import { renderMarkdown, sanitizeHtml, typographicText } from '../../../common/markdown/index.ts';
import { TEX_END, TEX_START } from '../../../common/markdown/search-tex.ts';

describe('math in the search index', () => {
  it('marks the rendered HTML and the MathML presentation for Pagefind to skip, and leaves the TeX source', () => {
    const html = renderMarkdown('Worst case: $T_{\\text{WC}} = \\sum_i |T_i|$.');
    expect(html).toMatch(/<span class="katex-html" aria-hidden="true" data-pagefind-ignore="">/);
    expect(html).toMatch(/<semantics><mrow data-pagefind-ignore="">/);
    // The annotation is the semantics' other child: not inside anything ignored, its TeX bracketed for the
    // search page (issue 28, 2.12), once however often the sanitiser's rounds run.
    expect(html).toContain(`</mrow><annotation encoding="application/x-tex">${TEX_START} T_{\\text{WC}} = \\sum_i |T_i| ${TEX_END}</annotation></semantics>`);
    expect(html.match(/data-pagefind-ignore/g)).toHaveLength(2);
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('lets no author hide their own text from search', () => {
    expect(renderMarkdown('<span data-pagefind-ignore class="katex-x">hidden?</span>')).not.toContain('data-pagefind-ignore');
  });
});

describe('typographic titles', () => {
  it('turns quotes, dashes and ellipses as the body pipeline does', () => {
    const title = `The "new" importer's notes -- and more...`;
    expect(typographicText(title)).toBe('The “new” importer’s notes – and more…');
    expect(renderMarkdown(title)).toBe(`<p>${typographicText(title)}</p>`);
  });

  it('reads the text as text, not markdown', () => {
    expect(typographicText(`'Quoted' *not* emphasis`)).toBe('‘Quoted’ *not* emphasis');
    expect(typographicText('Plain title')).toBe('Plain title');
  });
});
