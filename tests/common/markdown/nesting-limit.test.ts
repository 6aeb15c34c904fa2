// docs/product/constants.md: nesting depth limit 100. A hostile body must not blow the stack (of the build, or of the
// editor preview) and must not produce HTML nested deeper than the limit.
import type { Root } from 'hast';
import { describe, expect, it } from 'vitest';
import { NESTING_LIMIT, renderMarkdown, sanitizeHtml } from '../../../common/markdown/index.ts';
import { parseHtml } from './inspect-html.ts';

function maxDepth(root: Root, tag?: string): number {
  let deepest = 0;
  const stack: Array<[Root | Root['children'][number], number]> = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    const counted = node.type === 'element' && (tag === undefined || node.tagName === tag) ? depth + 1 : depth;
    deepest = Math.max(deepest, counted);
    if ('children' in node) for (const child of node.children) stack.push([child, counted]);
  }
  return deepest;
}

describe('nesting limit', () => {
  it('caps deeply nested blockquotes at the limit and keeps the text', () => {
    const html = renderMarkdown(`${'>'.repeat(3000)} deep text`);
    expect(html).toContain('deep text');
    expect(maxDepth(parseHtml(html), 'blockquote')).toBeLessThanOrEqual(NESTING_LIMIT);
  });

  it('survives 30,000 nested blockquotes', () => {
    const html = renderMarkdown(`${'>'.repeat(30_000)} x`);
    expect(html).toContain('x');
    expect(maxDepth(parseHtml(html))).toBeLessThanOrEqual(NESTING_LIMIT);
  });

  it('trims lines that open thousands of containers', () => {
    for (const line of [`${'- '.repeat(20_000)}item`, `${'1. '.repeat(20_000)}item`, `${'> - '.repeat(10_000)}item`]) {
      const html = renderMarkdown(line);
      expect(html).toContain('item');
      expect(maxDepth(parseHtml(html))).toBeLessThanOrEqual(NESTING_LIMIT);
    }
  });

  it('caps deeply nested lists', () => {
    const html = renderMarkdown(`${'- '.repeat(300)}item`);
    expect(html).toContain('item');
    expect(maxDepth(parseHtml(html))).toBeLessThanOrEqual(NESTING_LIMIT);
  });

  it('caps deeply nested embedded HTML', () => {
    const html = renderMarkdown(`<div>${'<span>'.repeat(1500)}inner`);
    expect(html).toContain('inner');
    expect(maxDepth(parseHtml(html))).toBeLessThanOrEqual(NESTING_LIMIT);
  });

  it('shows embedded HTML too deep to parse as text instead of failing', () => {
    const html = renderMarkdown(`Intro\n\n${'<div>'.repeat(50_000)}x`);
    expect(html).toContain('Intro');
    expect(html).toContain('&#x3C;div>');
    expect(maxDepth(parseHtml(html))).toBeLessThanOrEqual(2);
  });

  it('caps or escapes deep HTML in sanitizeHtml', () => {
    expect(maxDepth(parseHtml(sanitizeHtml(`${'<b>'.repeat(2000)}x`)))).toBeLessThanOrEqual(NESTING_LIMIT);
    const tooDeep = sanitizeHtml(`${'<div>'.repeat(50_000)}x`);
    expect(tooDeep.startsWith('&#x3C;div>')).toBe(true);
    expect(sanitizeHtml(tooDeep)).toBe(tooDeep);
  });

  it('does not count KaTeX internals against the limit', () => {
    const html = renderMarkdown(`${'> '.repeat(95)}$\\frac{\\frac{a}{b}}{\\sqrt{c}}$`);
    expect(html).toContain('class="katex"');
    expect(html).toContain('<mfrac><mfrac>');
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('shows absurdly nested formulas as TeX source', () => {
    const tex = `${'{'.repeat(500)}x${'}'.repeat(500)}`;
    const html = renderMarkdown(`$${tex}$ inline\n\n$$\n${tex}\n$$`);
    expect(html).not.toContain('class="katex"');
    expect(html).toContain(`<code>${tex}</code>`);
    expect(html).toContain(`<pre tabindex="0"><code class="language-tex">${tex}\n</code></pre>`);
  });
});
