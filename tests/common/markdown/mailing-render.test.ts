// The two renderings of a mailing's markdown: readable plain text for the text part (issue 14: it was the
// raw markdown) and HTML without anything loaded from another site (issue 17, item 9: tracking pixels).
import { describe, expect, it } from 'vitest';
import { renderMailingHtml, renderPlainText } from '../../../common/markdown/index.ts';
import { findDangers } from './inspect-html.ts';

const SITE = 'https://www.example.com';

describe('renderPlainText', () => {
  it('writes headings and paragraphs as lines, emphasis without markers and emoji shortcodes as emoji', () => {
    expect(renderPlainText('# Hello! :tada:\n\nSome *em*, **strong**, ~~gone~~, ==marked== and `code`.')).toBe(
      'Hello! 🎉\n\nSome em, strong, gone, marked and code.',
    );
  });

  it('writes links as "text (url)", site paths made absolute, and a bare link once', () => {
    expect(renderPlainText('See [the news](/news/releases), <https://example.org> and [mail us](mailto:info@example.com).', { siteUrl: SITE })).toBe(
      'See the news (https://www.example.com/news/releases), https://example.org and mail us (mailto:info@example.com).',
    );
    expect(renderPlainText('[docs][d]\n\n[d]: https://docs.example.com')).toBe('docs (https://docs.example.com)');
  });

  it('writes lists with "- " and numbers, nested lists indented, task items with their box', () => {
    expect(renderPlainText('- one\n- two\n  1. first\n  2. second\n- [x] done\n- [ ] open')).toBe(
      '- one\n- two\n  1. first\n  2. second\n- [x] done\n- [ ] open',
    );
    expect(renderPlainText('3. three\n4. four')).toBe('3. three\n4. four');
  });

  it('keeps math as its TeX source, code as written, quotes and tables readable', () => {
    expect(renderPlainText('Area $\\pi r^2$\n\n$$\n\\int_0^1 x\\,dx\n$$')).toBe('Area $\\pi r^2$\n\n$$\n\\int_0^1 x\\,dx\n$$');
    expect(renderPlainText('```js\nconst a = 1;\n```')).toBe('const a = 1;');
    expect(renderPlainText('> quoted *text*\n>\n> second')).toBe('> quoted text\n>\n> second');
    expect(renderPlainText('| a | b |\n|---|---|\n| 1 | 2 |')).toBe('a | b\n1 | 2');
  });

  it('reads embedded HTML as its text (no tags, no script) and images as their alt text', () => {
    expect(renderPlainText('<div>Hi <b>there</b><script>alert(1)</script></div>\n\n![Logo](/media/logo.png)')).toBe('Hi there\n\n[Logo]');
  });

  it('gives back a body nested too deeply to parse as written instead of failing', () => {
    const deep = `${'> '.repeat(5000)}deep`;
    expect(() => renderPlainText(deep)).not.toThrow();
  });
});

describe('renderMailingHtml', () => {
  it('keeps the site’s own images (site paths made absolute) and inline data images', () => {
    const pixel = 'data:image/png;base64,iVBORw0KGgo=';
    const html = renderMailingHtml(`![Logo](/media/logo.png) ![Chart](${SITE}/media/chart.png) ![dot](${pixel})`, SITE);
    expect(html).toContain(`<img src="${SITE}/media/logo.png" alt="Logo"`);
    expect(html).toContain(`<img src="${SITE}/media/chart.png" alt="Chart"`);
    expect(html).toContain(`src="${pixel}"`);
  });

  it('leaves out every image from another site, keeping its alt text, however it is written', () => {
    const html = renderMailingHtml(
      [
        '![Open tracker](https://tracker.example/open.gif?user=7)',
        '![](//tracker.example/p.gif)',
        '<img src="http://www.example.com.evil.example/x.png" width="1" height="1">',
        '<picture><source src="https://tracker.example/a.webp"><img src="https://tracker.example/b.png" alt=""></picture>',
        '<video src="https://tracker.example/v.mp4" poster="https://tracker.example/poster.png"></video>',
      ].join('\n\n'),
      SITE,
    );
    // Nothing loads when the mail is opened; the video is only a link, followed if the reader clicks it.
    expect(html).not.toMatch(/(src|poster)=/);
    expect(html).not.toMatch(/<img|<source|<video/);
    expect(html).toContain('Open tracker');
    expect(html).toContain('<a href="https://tracker.example/v.mp4" rel="noopener noreferrer">Video</a>');
    expect(findDangers(html)).toEqual([]);
  });

  it('turns an embedded video into a link to it, and makes site links absolute', () => {
    const html = renderMailingHtml('[Docs](/documentation)\n\n<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" title="Launch"></iframe>', SITE);
    expect(html).toContain(`href="${SITE}/documentation"`);
    expect(html).not.toContain('<iframe');
    expect(html).toContain('<a href="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ" rel="noopener noreferrer">Launch</a>');
  });
});
