import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { absoluteUrl, canonicalUrl, formatDate, markdownExcerpt, pageTitle, topLevelSection } from '../../../src/lib/page-meta.ts';

describe('page meta', () => {
  it('titles pages "<site> <year> – <page>"', () => {
    expect(pageTitle('Dimensional Control', 'News: Events', 2026)).toBe('Dimensional Control 2026 – News: Events');
  });

  it('builds canonical links without trailing slashes, whatever the site URL looks like', () => {
    expect(canonicalUrl('http://localhost:4321', '/')).toBe('http://localhost:4321/');
    expect(canonicalUrl('http://localhost:4321/', '/news/events/')).toBe('http://localhost:4321/news/events');
    expect(canonicalUrl('https://example.com/site/', 'news')).toBe('https://example.com/site/news');
    expect(canonicalUrl('https://example.com', '//news//')).toBe('https://example.com/news');
  });

  it('finds the top-level section for the nav bar', () => {
    expect(topLevelSection('/')).toBe('/');
    expect(topLevelSection('/news/events/')).toBe('/news');
    expect(topLevelSection('/reset-pasword/form')).toBe('/reset-pasword');
  });

  it('makes absolute image URLs', () => {
    expect(absoluteUrl('https://example.com/', '/media/a.png')).toBe('https://example.com/media/a.png');
    expect(absoluteUrl('https://example.com', 'https://cdn.example/a.png')).toBe('https://cdn.example/a.png');
  });

  it('turns markdown into a plain description', () => {
    expect(markdownExcerpt('# Title\n\nSome **bold** and [a link](/x), `code`, $x^2$ and ==marks== :smile:.\n\n```js\nhidden()\n```')).toBe(
      'Title Some bold and a link, code, and marks .',
    );
    const long = markdownExcerpt('word '.repeat(100), 40);
    expect(long.length).toBeLessThanOrEqual(40);
    expect(long.endsWith('word…')).toBe(true);
    expect(markdownExcerpt('| Feature | Tolerance |\n| :--- | ---: |\n| Bore | [±0.01](/t) |')).toBe('Feature Tolerance Bore ±0.01');
  });

  // Bodies the old patterns took minutes over or never finished (a run of spaces backtracked cubically; every
  // `<` without a `>` after it rescanned the rest): a 20,000-deep nest of tags held a build. Now one pass each.
  it('describes bodies of deeply nested tags, unclosed tags and long runs of spaces', () => {
    expect(markdownExcerpt(`${'<div>'.repeat(20_000)}deep${'</div>'.repeat(20_000)}`)).toBe('deep');
    expect(markdownExcerpt(`start ${'<'.repeat(50_000)}`, 20)).toBe(`start ${'<'.repeat(13)}…`);
    expect(markdownExcerpt(`a${' '.repeat(100_000)}b`)).toBe('a b');
  });

  // The patterns changed for speed only: on markdown and HTML pieces they describe exactly what the chain
  // they replaced (kept here as the specification) did.
  it('describes every body as the original patterns did', () => {
    const original = (markdown: string, maxLength = 160) => {
      const text = markdown
        .replace(/```[\s\S]*?```|~~~[\s\S]*?~~~/g, ' ')
        .replace(/\$\$[\s\S]*?\$\$/g, ' ')
        .replace(/\$[^$\n]+\$/g, ' ')
        .replace(/<[^>]*>/g, ' ')
        .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/\[\^[^\]]*\]:?/g, ' ')
        .replace(/`([^`]*)`/g, '$1')
        .replace(/:([a-z0-9_+-]+):/g, ' ')
        .replace(/^\s{0,3}(?:#{1,6}|>|[-+*]|\d+[.)])\s+/gm, '')
        .replace(/^\s*\|?[\s:|-]+\|?\s*$/gm, ' ')
        .replace(/[*_~=|#]+/g, '')
        .replace(/\s+/g, ' ')
        .trim();
      if (text.length <= maxLength) return text;
      const cut = text.slice(0, maxLength - 1);
      const space = cut.lastIndexOf(' ');
      return `${(space > maxLength / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–—-]+$/, '')}…`;
    };
    const pieces = [
      '| a | b |',
      '\n',
      '|---|:--:|',
      ' ',
      '[x](http://e.com/a_(b))',
      '![i](p.png)',
      '[^1]',
      '[^1]: note',
      '<b>',
      '</b>',
      '<',
      '>',
      '$x$',
      '$$y$$',
      '```',
      'code',
      '# h',
      '> q',
      '- li',
      '1. n',
      ':smile:',
      '**s**',
      '`c`',
      'word',
      '\t',
      ':',
      '-',
      '|',
      '[',
      ']',
      '(',
      ')',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), fc.integer({ min: 10, max: 200 }), (parts, maxLength) => {
        const markdown = parts.join('');
        expect(markdownExcerpt(markdown, maxLength)).toBe(original(markdown, maxLength));
      }),
      { numRuns: 3000 },
    );
  });

  it('formats dates (UTC)', () => {
    expect(formatDate('2026-01-05T23:30:00.000Z')).toBe('5 January 2026');
    expect(formatDate('not a date')).toBe('not a date');
  });
});
