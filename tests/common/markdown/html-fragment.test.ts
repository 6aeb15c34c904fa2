// parseHtmlFragment (common/markdown/finalize.ts) reads HTML with parse5 directly; it must build exactly the
// tree rehype-raw builds of the same fragment, the parse it replaced (docs/decisions/0070-html-read-back-direct.md),
// node for node: the sanitiser's read-back, sanitizeHtml, the mailing and plain-text renderers and the math
// fallback all rely on reading HTML as a browser does.
import fc from 'fast-check';
import type { Root } from 'hast';
import rehypeRaw from 'rehype-raw';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { parseHtmlFragment } from '../../../common/markdown/finalize.ts';
import { renderMarkdown } from '../../../common/markdown/render.ts';

const rehypeRawParser = unified().use(rehypeRaw).freeze();

/** The fragment as rehype-raw parses it, source positions left out (nothing that reads the tree uses them). */
function parsedByRehypeRaw(html: string): unknown {
  const tree = rehypeRawParser.runSync({ type: 'root', children: [{ type: 'raw', value: html }] }) as Root;
  return JSON.parse(JSON.stringify(tree, (key, value: unknown) => (key === 'position' ? undefined : value)));
}

const FRAGMENTS = [
  '<p>Plain <em>text</em> &amp; entities &copy; &#x1F600; &notanentity;</p>',
  // Scripting off, as hast-util-raw parses: <noscript>'s content is markup, not text.
  '<noscript><p>shown without scripts</p><img src=x></noscript>',
  // A <template> is the context: table parts at the top level are kept, as in a template's content.
  '<td>cell</td><tr><td>row</td></tr><caption>c</caption><col span=2>',
  '<template><p>inside</p></template><p>after</p>',
  // Mis-nesting the parser repairs.
  '<p>a<button><p>b</p></button></p><b><i>x</b>y</i><table><p>foster</p><tr><td>1</table>',
  '<ul><li>one<li>two<ul><li>nested</ul></ul><dl><dt>t<dd>d</dl>',
  // Foreign content: SVG attribute and element case, MathML, an HTML breakout.
  '<svg viewbox="0 0 1 1" preserveaspectratio="none"><foreignobject><p>x</p></foreignobject><path d="M0 0"/><lineargradient/></svg>',
  '<math><mi>x</mi><annotation-xml encoding="text/html"><p>h</p></annotation-xml><mtext><b>t</b></mtext></math><svg><p>breaks out</svg>',
  // Line endings normalised, NUL replaced, comments and a stray doctype.
  '<p>a\r\nb\rc\0d</p><!-- a comment --><!doctype html><p title="x\r\ny">e</p>',
  '<pre>\nleading newline dropped</pre><textarea>\n<b>text</b></textarea><listing>\nx</listing>',
  '<a href="/x">a<a href="/y">nested anchors</a></a><form><form><input name=a></form>',
  '<select><option>a<option>b<optgroup><option>c</select><frameset></frameset>',
  '<div class=" a  b " hidden data-x=1 aria-hidden="true" style="color: red">attributes</div>',
  '<script>if (a < b) alert(1)</script><style>p > a {}</style><xmp><b></xmp><plaintext><b>rest',
  '<img/src=x/onerror=alert(1)><iframe srcdoc="<p>x</p>"></iframe><object data=x><param name=a></object>',
  'text only, no tags',
  '',
];

describe('parseHtmlFragment', () => {
  it.each(FRAGMENTS.map((html) => [html]))('builds what rehype-raw builds of %j', (html) => {
    expect(parseHtmlFragment(html)).toEqual(parsedByRehypeRaw(html));
  });

  it.each([
    ['a lone < at the end', 'a <', [{ type: 'text', value: 'a <' }]],
    [
      'an unterminated comment',
      'a<!--b',
      [
        { type: 'text', value: 'a' },
        { type: 'comment', value: 'b' },
      ],
    ],
  ])('keeps %s as a browser does', (_name, html, children) => {
    expect(parseHtmlFragment(html).children).toEqual(children);
  });

  it('keeps text still waiting at the end of an unclosed table, as a browser does, and so does rehype-raw (patched)', () => {
    // In a table, text waits to be moved before the table until the next tag; at the end of the input a browser
    // (and parse5) moves it there. hast-util-raw never told the parser the input ended, and lost it
    // (patches/hast-util-raw+9.2.0.patch).
    const table = { type: 'element', tagName: 'table', properties: {}, children: [] };
    expect(parseHtmlFragment('<table>x &amp; y').children).toEqual([{ type: 'text', value: 'x & y' }, table]);
    expect((parsedByRehypeRaw('<table>x &amp; y') as Root).children).toEqual([{ type: 'text', value: 'x & y' }, table]);
    // A markdown body's embedded HTML goes through rehype-raw.
    expect(renderMarkdown('Para\n\n<table>x &amp; y')).toBe('<p>Para</p>\nx &#x26; y<table tabindex="0"></table>');
  });

  it('builds what rehype-raw builds of arbitrary markup', () => {
    const piece = fc.constantFrom(
      '<p>',
      '</p>',
      '<b>',
      '</b>',
      '<i>',
      '</i>',
      '<table>',
      '<tr>',
      '<td>',
      '</table>',
      '<svg>',
      '</svg>',
      '<math>',
      '<mi>',
      '<noscript>',
      '<template>',
      '</template>',
      '<select>',
      '<option>',
      '<a href="x">',
      '</a>',
      '<li>',
      '<ul>',
      '<!--c-->',
      '<br/>',
      '&amp;',
      '&lt;',
      'text',
      ' ',
      '\r\n',
      '\0',
      '<',
      '>',
      '"',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        // Ended by a comment: at the very end of its input hast-util-raw drops what parse5's tokenizer still holds
        // (a lone `<`, an unterminated comment), which parse5 given the whole string keeps, as a browser does.
        const html = `${pieces.join('')}<!--end-->`;
        expect(parseHtmlFragment(html)).toEqual(parsedByRehypeRaw(html));
      }),
      { numRuns: Number(process.env.FRAGMENT_RUNS ?? 400) },
    );
  });
});
