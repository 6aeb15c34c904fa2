// micromark runs patched (patches/micromark+4.0.3.patch, docs/decisions/0071-markdown-syntax-combined-once.md): the
// syntax of a list of extensions is combined once and kept while the list holds the same extensions, since
// remark-parse hands its processor's one list to every parse. A list that changes must be combined again.
import { micromark } from 'micromark';
import { gfmStrikethrough, gfmStrikethroughHtml } from 'micromark-extension-gfm-strikethrough';
import { math, mathHtml } from 'micromark-extension-math';
import type { Extension } from 'micromark-util-types';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../common/markdown/render.ts';

const html = [gfmStrikethroughHtml(), mathHtml()];

describe('markdown syntax extensions', () => {
  it('parses with a list of extensions as it holds them at each parse', () => {
    const extensions: Extension[] = [];
    expect(micromark('~~a~~ $b$', { extensions, htmlExtensions: html })).toBe('<p>~~a~~ $b$</p>');
    extensions.push(gfmStrikethrough());
    expect(micromark('~~a~~ $b$', { extensions, htmlExtensions: html })).toBe('<p><del>a</del> $b$</p>');
    expect(micromark('~~a~~ $b$', { extensions, htmlExtensions: html })).toBe('<p><del>a</del> $b$</p>');
    // The same length, another extension.
    extensions[0] = math();
    expect(micromark('~~a~~ $b$', { extensions, htmlExtensions: html })).toMatch(/^<p>~~a~~ <span class="math math-inline">/);
    extensions.length = 0;
    expect(micromark('~~a~~ $b$', { extensions, htmlExtensions: html })).toBe('<p>~~a~~ $b$</p>');
  });

  it('parses without extensions as CommonMark', () => {
    expect(micromark('~~a~~')).toBe('<p>~~a~~</p>');
    expect(micromark('~~a~~', { extensions: [gfmStrikethrough()], htmlExtensions: html })).toBe('<p><del>a</del></p>');
    expect(micromark('~~a~~')).toBe('<p>~~a~~</p>');
  });

  it('renders bodies one after another with the pipeline’s syntax', () => {
    for (let round = 0; round < 3; round++) {
      expect(renderMarkdown('~~gone~~ | ==kept== | $x$')).toMatch(/^<p><del>gone<\/del> \| <mark>kept<\/mark> \| <span class="katex">/);
    }
  });
});
