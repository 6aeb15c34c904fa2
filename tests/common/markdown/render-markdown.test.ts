// renderMarkdown, feature by feature (issue 4, item 1).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../common/markdown/index.ts';
import { markTexForSearch } from '../../../common/markdown/search-tex.ts';
import { findDangers } from './inspect-html.ts';

describe('renderMarkdown: CommonMark and GFM', () => {
  it('renders paragraphs, emphasis, lists, code and headings with ids', () => {
    const html = renderMarkdown('# Getting started\n\nSome *em* and **strong**.\n\n- one\n- two\n\n```js\nconst a = 1;\n```');
    expect(html).toContain('<h1 id="user-content-getting-started">Getting started</h1>');
    expect(html).toContain('<em>em</em>');
    expect(html).toContain('<strong>strong</strong>');
    expect(html).toMatch(/<ul>\s*<li>one<\/li>\s*<li>two<\/li>\s*<\/ul>/);
    expect(html).toContain('<pre tabindex="0"><code class="language-js">const a = 1;\n</code></pre>');
  });

  it('lets the keyboard reach every block that can scroll sideways, and nothing else', () => {
    // Code, tables and displayed formulas scroll inside the column on a phone (.prose in global.css): each is a
    // tab stop so a keyboard can scroll it. Content cannot add tab stops of its own or take these away.
    const html = renderMarkdown(
      '```\ncode\n```\n\n| a |\n|---|\n| 1 |\n\n$$\nx^2\n$$\n\n<pre tabindex="-1">raw</pre>\n\n<div tabindex="3">a</div>\n\n<p tabindex="0">b</p>',
    );
    expect(html.match(/tabindex="[^"]*"/g)).toEqual(['tabindex="0"', 'tabindex="0"', 'tabindex="0"', 'tabindex="0"']);
    expect(html).toContain('<pre tabindex="0">raw</pre>');
    expect(html).toContain('<div>a</div>');
    expect(html).toContain('<p>b</p>');
  });

  it('renders tables with alignment', () => {
    const html = renderMarkdown('| Name | Qty |\n|:-----|----:|\n| bolt | 12 |');
    expect(html).toContain('<table tabindex="0">');
    expect(html).toContain('<th align="left">Name</th>');
    expect(html).toContain('<td align="right">12</td>');
  });

  it('renders strikethrough and task lists', () => {
    expect(renderMarkdown('~~old~~ new')).toContain('<del>old</del> new');
    const tasks = renderMarkdown('- [x] done\n- [ ] todo');
    expect(tasks).toContain('<input type="checkbox" checked disabled>');
    expect(tasks).toContain('<input type="checkbox" disabled>');
  });

  it('links bare URLs and www. addresses, external ones with rel=noopener noreferrer', () => {
    const html = renderMarkdown('See https://example.com/docs and www.example.org.');
    expect(html).toContain('<a href="https://example.com/docs" rel="noopener noreferrer">https://example.com/docs</a>');
    expect(html).toContain('<a href="http://www.example.org" rel="noopener noreferrer">www.example.org</a>');
  });

  it('leaves internal links without rel', () => {
    expect(renderMarkdown('[docs](/documentation/intro#setup)')).toContain('<a href="/documentation/intro#setup">docs</a>');
  });

  it('prefixes heading ids and points in-body fragment links at them, but leaves links to other anchors', () => {
    const html = renderMarkdown('## Setup\n\n[jump](#setup) [other post](#another-post)');
    expect(html).toContain('<h2 id="user-content-setup">Setup</h2>');
    expect(html).toContain('<a href="#user-content-setup">jump</a>');
    expect(html).toContain('<a href="#another-post">other post</a>');
  });

  it('renders footnotes with working references', () => {
    const html = renderMarkdown('Text[^1]\n\n[^1]: The note.');
    expect(html).toContain('href="#user-content-fn-1"');
    expect(html).toContain('id="user-content-fn-1"');
    expect(html).toContain('aria-describedby="user-content-footnote-label"');
    expect(html).toContain('id="user-content-footnote-label"');
  });
});

describe('renderMarkdown: typography', () => {
  it('curls quotes and apostrophes', () => {
    expect(renderMarkdown("\"Quoted\" and 'single', it's")).toContain('<p>“Quoted” and ‘single’, it’s</p>');
  });

  it('replaces dashes and ellipses', () => {
    expect(renderMarkdown('pages 1--5 --- and so on...')).toContain('<p>pages 1–5 — and so on…</p>');
  });

  it('leaves code untouched', () => {
    expect(renderMarkdown('`"x" -- ...`')).toContain('<code>"x" -- ...</code>');
  });
});

describe('renderMarkdown: emoji shortcodes', () => {
  it('replaces known shortcodes and keeps unknown ones', () => {
    const html = renderMarkdown('Hi :smile: :rocket: :not_an_emoji:');
    expect(html).toContain('😄');
    expect(html).toContain('🚀');
    expect(html).toContain(':not_an_emoji:');
  });

  it('does not touch shortcodes in code', () => {
    expect(renderMarkdown('`:smile:`')).toContain('<code>:smile:</code>');
  });
});

describe('renderMarkdown: ==highlight==', () => {
  it('marks text', () => {
    expect(renderMarkdown('a ==marked== word')).toBe('<p>a <mark>marked</mark> word</p>');
  });

  it('marks across inline formatting', () => {
    expect(renderMarkdown('==very **important** note==')).toBe('<p><mark>very <strong>important</strong> note</mark></p>');
  });

  it('handles several marks in one paragraph and inside other inline nodes', () => {
    expect(renderMarkdown('==a== and *==b==*')).toBe('<p><mark>a</mark> and <em><mark>b</mark></em></p>');
  });

  it('never triggers inside code spans or code blocks', () => {
    expect(renderMarkdown('`a ==b== c`')).toBe('<p><code>a ==b== c</code></p>');
    expect(renderMarkdown('```\nx ==y==\n```')).toBe('<pre tabindex="0"><code>x ==y==\n</code></pre>');
  });

  it('leaves comparisons, runs of = and unmatched markers alone', () => {
    expect(renderMarkdown('if a == b or c == d')).toBe('<p>if a == b or c == d</p>');
    expect(renderMarkdown('x === y')).toBe('<p>x === y</p>');
    expect(renderMarkdown('==open only')).toBe('<p>==open only</p>');
  });
});

describe('renderMarkdown: math', () => {
  it('renders inline math with KaTeX (HTML and MathML)', () => {
    const html = renderMarkdown('Energy $E=mc^2$ here');
    expect(html).toContain('<span class="katex">');
    expect(html).toContain('<math xmlns="http://www.w3.org/1998/Math/MathML">');
    // The TeX source, bracketed for the site search (common/markdown/search-tex.ts).
    expect(html).toContain(`<annotation encoding="application/x-tex">${markTexForSearch('E=mc^2')}</annotation>`);
    expect(html).toMatch(/class="katex-strut" style="height:[\d.]+em;"/);
  });

  it('writes the class names of the KaTeX stylesheet the pages load (katex/dist/katex.min.css)', () => {
    // A rendering by another KaTeX than the stylesheet's (rehype-katex's own older copy wrote `base` and
    // `strut`, which this stylesheet no longer styles) lays every formula out wrongly.
    const css = fs.readFileSync(createRequire(import.meta.url).resolve('katex/dist/katex.min.css'), 'utf8');
    const html = renderMarkdown('$E=mc^2$ and $$\\frac{1}{\\sqrt{x}}$$');
    // Each line of a formula's visual part is a box (KaTeX's "base") opening with an empty strut that sets its height.
    const lines = [...html.matchAll(/<span class="katex-html"[^>]*><span class="([\w-]+)"><span class="([\w-]+)" style="height:/g)];
    expect(lines).toHaveLength(2);
    for (const [, base, strut] of lines) {
      expect(css).toContain(`.katex .${base!}{`);
      expect(css).toContain(`.katex .${strut!}{`);
    }
  });

  it('renders display math blocks', () => {
    const html = renderMarkdown('$$\n\\int_0^1 x\\,dx = \\frac{1}{2}\n$$');
    expect(html).toContain('<span class="katex-display" tabindex="0">');
    expect(html).toContain('display="block"');
    expect(html).toContain('class="mfrac"');
  });

  it('keeps the SVG KaTeX draws for roots and arrows', () => {
    const html = renderMarkdown('$\\sqrt{x} + \\overrightarrow{AB}$');
    expect(html).toMatch(/<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="[^"]+" height="[^"]+" viewBox="[^"]+" preserveAspectRatio="[^"]+"><path d="/);
  });

  it('shows an error instead of throwing on bad TeX', () => {
    const html = renderMarkdown('$\\frac{1}{$');
    expect(html).toContain('katex-error');
  });

  it('stops runaway macro expansion (maxExpand 1000)', () => {
    const bomb =
      '$\\def\\a{\\b\\b}\\def\\b{\\c\\c}\\def\\c{\\d\\d}\\def\\d{\\e\\e}\\def\\e{\\f\\f}\\def\\f{\\g\\g}\\def\\g{\\h\\h}\\def\\h{\\i\\i}\\def\\i{\\j\\j}\\def\\j{xx}\\a\\a\\a$';
    // The cap's own error proves the expansion stopped (uncapped, about 3,000 expansions).
    const html = renderMarkdown(bomb);
    expect(html).toContain('katex-error');
    expect(html).toMatch(/Too many expansions/);
  });

  it('refuses \\href and \\includegraphics (trust off)', () => {
    const html = renderMarkdown('$\\href{javascript:alert(1)}{x} \\includegraphics{a.png}$');
    expect(findDangers(html)).toEqual([]);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<a ');
  });

  it('does not treat dollars in code as math', () => {
    expect(renderMarkdown('`$x$`')).toBe('<p><code>$x$</code></p>');
  });
});

describe('renderMarkdown: embedded HTML', () => {
  it('keeps safe HTML', () => {
    const html = renderMarkdown('<details><summary>More</summary>\n\nHidden *text*\n\n</details>\n\n<kbd>Ctrl</kbd> <sub>2</sub> <u>u</u>');
    expect(html).toContain('<details><summary>More</summary>');
    expect(html).toContain('<em>text</em>');
    expect(html).toContain('<kbd>Ctrl</kbd> <sub>2</sub> <u>u</u>');
  });

  it('parses HTML embedded deep inside the body (a list item in a quote), not only at its top', () => {
    const html = renderMarkdown('Plain words first.\n\n> - press <kbd>Ctrl</kbd>, then *go*\n>   - and <sub>2</sub>');
    expect(html).toContain('<kbd>Ctrl</kbd>');
    expect(html).toContain('<sub>2</sub>');
    expect(html).not.toContain('&#x3C;kbd');
  });

  it('renders a body without embedded HTML as one with an embedded element renders the same parts', () => {
    // The parse5 pass runs only where a body embeds HTML (common/markdown/render.ts): an HTML comment makes it
    // run over the whole tree, and the sanitiser drops the comment, so both must come out alike (but for the
    // blank line the comment's own block leaves between blocks).
    const body = [
      '# Probe setup',
      'Set the *stylus* to $r = 1.5\\,\\text{mm}$ and check "flatness" -- see [the guide](https://example.com/guide).',
      '| Axis | Error |\n|:--|--:|\n| X | 0.002 |',
      '1. calibrate\n2. ==measure==\n   - [x] sphere\n\n```ts\nconst a = 1 < 2;\n```',
      '$$\n\\sum_{i=1}^n x_i^2\n$$',
      'A note.[^1]\n\n[^1]: Footnote with :smile:.',
    ].join('\n\n');
    const betweenBlocks = (html: string) => html.replace(/\n+/g, '\n').trim();
    expect(betweenBlocks(renderMarkdown(body))).toBe(betweenBlocks(renderMarkdown(`${body}\n\n<!-- parsed as HTML -->`)));
  });

  it('keeps images with alt and size, lazily loaded', () => {
    const html = renderMarkdown('![Gauge](/media/gauge.png "Gauge") <img src="/media/a.webp" alt="A" width="640" height="480">');
    expect(html).toContain('<img src="/media/gauge.png" alt="Gauge" title="Gauge" loading="lazy" decoding="async">');
    expect(html).toContain('<img src="/media/a.webp" alt="A" width="640" height="480" loading="lazy" decoding="async">');
  });

  it('embeds YouTube through youtube-nocookie', () => {
    for (const src of ['https://www.youtube.com/embed/dQw4w9WgXcQ', '//youtube.com/embed/dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ']) {
      const html = renderMarkdown(`<iframe src="${src}" width="640" height="360" onload="x()"></iframe>`);
      expect(html).toContain('<iframe src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"');
      expect(html).toContain('width="640" height="360"');
      expect(html).toContain('allowfullscreen');
      expect(findDangers(html)).toEqual([]);
    }
  });

  it('keeps a start time on YouTube embeds', () => {
    expect(renderMarkdown('<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ?start=42"></iframe>')).toContain(
      'src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=42"',
    );
  });

  it('removes other iframes', () => {
    for (const src of [
      'https://evil.example/embed/dQw4w9WgXcQ',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://www.youtube.com.evil.example/embed/dQw4w9WgXcQ',
      'https://www.youtube.com/embed/short',
    ]) {
      expect(renderMarkdown(`<iframe src="${src}"></iframe>`)).not.toContain('<iframe');
    }
  });

  it('allows data: images of raster types only', () => {
    expect(renderMarkdown('<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">')).toContain('src="data:image/png;base64,iVBORw0KGgo="');
    expect(renderMarkdown('<img src="data:image/webp;base64,UklGRg==" alt="">')).toContain('src="data:image/webp;base64,UklGRg=="');
    expect(renderMarkdown('<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="">')).not.toContain('data:');
    expect(renderMarkdown('[x](data:image/png;base64,iVBORw0KGgo=)')).not.toContain('data:');
  });

  it('keeps harmless inline styles and drops the rest', () => {
    const html = renderMarkdown('<span style="color: #c00; position: fixed; background-image: url(x.png); width: 10em">x</span>');
    expect(html).toContain('<span style="color:#c00;width:10em;">x</span>');
  });

  it('filters a style it has seen before as the first time (each distinct style is filtered once)', () => {
    const unsafe = '<span style="position: fixed; top: 0">a</span> <span style="color: red">b</span>';
    for (let round = 0; round < 3; round++) {
      expect(renderMarkdown(unsafe)).toBe('<p><span style="top:0;">a</span> <span style="color:red;">b</span></p>');
    }
  });
});
