// Issue 14: rendered math is hidden from the site search (its TeX source stays), and titles get the same
// typographic punctuation as bodies.
import { describe, expect, it, vi } from 'vitest';
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

// remark-smartypants runs patched (patches/remark-smartypants+3.0.3.patch, docs/decisions/0069-typography-fast-path.md): a
// text node with nothing either of its two passes can change is no longer parsed by retext. Each case below is
// one text node holding one kind of change, so a test of what the passes may change that is too narrow fails here.
describe('typographic punctuation, text by text', () => {
  it.each([
    ['Wait... then', 'Wait… then'],
    ['Wait. . . then', 'Wait… then'],
    // Dots apart by any of parse-latin's white space (U+0085 and the others JavaScript's \s does or does not know).
    ['Wait .\u0085.\u0085. then', 'Wait … then'],
    ['Wait .\u00a0.\u00a0. then', 'Wait … then'],
    ['Wait .\u3000.\u3000. then', 'Wait … then'],
    ['Wait .\u2028.\u2028. then', 'Wait … then'],
    ['Wait .\t.\t. then', 'Wait … then'],
    ['Ranges 1--2', 'Ranges 1–2'],
    ['A pause --- here', 'A pause — here'],
    ['An en dash \u2013- joined', 'An en dash — joined'],
    ["``Backticks'' here", '“Backticks” here'],
    ["''Quotes'' here", '”Quotes” here'],
    [`It's "new"`, 'It’s “new”'],
  ])('%j becomes %j', (text, typographic) => {
    expect(renderMarkdown(text)).toBe(`<p>${typographic}</p>`);
    expect(typographicText(text)).toBe(typographic);
  });

  it.each([['One. Two. Three.'], ['Wait .\ufeff.\ufeff. then'], ['Plain words only'], ['well-known 1-2 e.g. a.b.c']])('leaves %j as it is', (text) => {
    expect(renderMarkdown(text)).toBe(`<p>${text}</p>`);
    expect(typographicText(text)).toBe(text);
  });

  it('turns what it meets across inline elements, headings and table cells', () => {
    expect(renderMarkdown('A *stressed* "quote across *emphasis*" and [a "link"](https://example.com) -- ok.')).toBe(
      '<p>A <em>stressed</em> “quote across <em>emphasis</em>” and <a href="https://example.com" rel="noopener noreferrer">a “link”</a> – ok.</p>',
    );
    expect(renderMarkdown('# Heading -- dash')).toBe('<h1 id="user-content-heading--dash">Heading – dash</h1>');
    expect(renderMarkdown('| a -- b |\n|---|\n| c... |')).toContain('<th>a – b</th>');
    expect(renderMarkdown('| a -- b |\n|---|\n| c... |')).toContain('<td>c…</td>');
  });

  it('writes nothing to the console (retext-smartypants 6.2.0 logged every en dash it joined with a hyphen)', () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(renderMarkdown('An en dash \u2013- joined')).toBe('<p>An en dash — joined</p>');
      expect(log).not.toHaveBeenCalled();
    } finally {
      log.mockRestore();
    }
  });
});
