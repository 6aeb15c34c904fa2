// The post form's toolbar edits (docs/product/reading.md#posts-screens: headings 1-5, bold, italic, strikethrough, highlight, link)
// and the image manager's insertions, as pure functions of the text and the selection.
import { describe, expect, it } from 'vitest';
import {
  applyEdit,
  imageMarkdown,
  insertBlock,
  insertLink,
  setHeading,
  toggleInline,
  videoEmbed,
  type Selection,
  type TextEdit,
} from '../../../../src/islands/admin/markdown-edits.ts';

/** The text after the edit, with the new selection marked as « and ». */
function run(text: string, selection: Selection, edit: (text: string, selection: Selection) => TextEdit): string {
  const result = edit(text, selection);
  const next = applyEdit(text, result);
  return `${next.slice(0, result.select.start)}«${next.slice(result.select.start, result.select.end)}»${next.slice(result.select.end)}`;
}

const at = (text: string, word: string): Selection => ({ start: text.indexOf(word), end: text.indexOf(word) + word.length });

describe('inline styles', () => {
  it('wraps the selection in the markers of each style and keeps it selected', () => {
    const text = 'measure every part';
    expect(run(text, at(text, 'every'), (t, s) => toggleInline(t, s, 'bold'))).toBe('measure **«every»** part');
    expect(run(text, at(text, 'every'), (t, s) => toggleInline(t, s, 'italic'))).toBe('measure *«every»* part');
    expect(run(text, at(text, 'every'), (t, s) => toggleInline(t, s, 'strikethrough'))).toBe('measure ~~«every»~~ part');
    expect(run(text, at(text, 'every'), (t, s) => toggleInline(t, s, 'highlight'))).toBe('measure ==«every»== part');
  });

  it('leaves surrounding spaces outside the markers, where markdown needs them', () => {
    const text = 'measure every part';
    expect(run(text, at(text, ' every '), (t, s) => toggleInline(t, s, 'bold'))).toBe('measure **«every»** part');
  });

  it('unwraps when the selection already carries the markers, inside or around it', () => {
    expect(run('a **b** c', at('a **b** c', 'b'), (t, s) => toggleInline(t, s, 'bold'))).toBe('a «b» c');
    expect(run('a **b** c', at('a **b** c', '**b**'), (t, s) => toggleInline(t, s, 'bold'))).toBe('a «b» c');
  });

  it('inserts a selected placeholder at a bare cursor', () => {
    expect(run('ab', { start: 1, end: 1 }, (t, s) => toggleInline(t, s, 'bold'))).toBe('a**«bold text»**b');
  });
});

describe('headings', () => {
  it('makes the cursor line a heading of the level, replacing an existing level', () => {
    expect(run('one\ntwo\nthree', { start: 5, end: 5 }, (t, s) => setHeading(t, s, 2))).toBe('one\n## two«»\nthree');
    expect(run('one\n#### two', { start: 6, end: 6 }, (t, s) => setHeading(t, s, 1))).toBe('one\n# two«»');
  });

  it('turns a heading of the same level back into a paragraph', () => {
    expect(run('### two', { start: 7, end: 7 }, (t, s) => setHeading(t, s, 3))).toBe('two«»');
  });

  it('applies to every selected line and keeps blank lines blank', () => {
    const text = 'a\n\nb\nc';
    expect(run(text, { start: 0, end: 4 }, (t, s) => setHeading(t, s, 5))).toBe('«##### a\n\n##### b»\nc');
  });
});

describe('links', () => {
  it('turns the selection into the link text and selects the address to type', () => {
    expect(run('see docs here', at('see docs here', 'docs'), insertLink)).toBe('see [docs](«https://») here');
  });

  it('uses a selected URL as the address and selects the text instead', () => {
    const text = 'go https://example.com now';
    expect(run(text, at(text, 'https://example.com'), insertLink)).toBe('go [«link text»](https://example.com) now');
  });

  it('inserts a placeholder link at a bare cursor', () => {
    expect(run('x', { start: 1, end: 1 }, insertLink)).toBe('x[«link text»](https://)');
  });
});

describe('insertions from the image manager', () => {
  it('puts a block on lines of its own at the cursor, with the cursor after it', () => {
    expect(run('first line', { start: 10, end: 10 }, (t, s) => insertBlock(t, s, '![a](/x.webp)'))).toBe('first line\n\n![a](/x.webp)\n«»');
    expect(run('one\n\ntwo', { start: 5, end: 5 }, (t, s) => insertBlock(t, s, 'B'))).toBe('one\n\nB\n\n«»two');
    expect(run('', { start: 0, end: 0 }, (t, s) => insertBlock(t, s, 'B'))).toBe('B\n«»');
  });

  it('escapes what would break the image markdown', () => {
    expect(imageMarkdown('gauge [old] \\ new', '/media/news/a b(1).webp')).toBe('![gauge \\[old\\] \\\\ new](/media/news/a%20b%281%29.webp)');
  });

  it('embeds a video item as a youtube-nocookie iframe with an escaped title', () => {
    expect(videoEmbed('Probe "demo" <1>', 'https://www.youtube-nocookie.com/embed/abcdefghijk')).toBe(
      '<iframe src="https://www.youtube-nocookie.com/embed/abcdefghijk" title="Probe &quot;demo&quot; &lt;1&gt;" allowfullscreen></iframe>',
    );
  });
});
