// The markdown toolbar's edits as pure functions over (text, selection), so they are testable without a
// browser: each returns the replacement for a range and the selection to leave afterwards. The editor
// applies them through the browser's own editing (undo keeps working).
import { escapeHtml } from '../../../common/escape-html.ts';

export interface Selection {
  start: number;
  end: number;
}

export interface TextEdit {
  /** The range of the original text to replace. */
  from: number;
  to: number;
  insert: string;
  /** Selection after the edit, in the new text. */
  select: Selection;
}

export type InlineStyle = 'bold' | 'italic' | 'strikethrough' | 'highlight';

/** docs/product/reading.md#posts-screens: bold, italic, strikethrough, highlight (`==mark==`, docs/product/reading.md#markdown). */
export const INLINE_MARKERS: Record<InlineStyle, { marker: string; placeholder: string }> = {
  bold: { marker: '**', placeholder: 'bold text' },
  italic: { marker: '*', placeholder: 'italic text' },
  strikethrough: { marker: '~~', placeholder: 'struck text' },
  highlight: { marker: '==', placeholder: 'highlighted text' },
};

/** docs/product/constants.md: heading choices 1 to 5. */
export const HEADING_LEVELS = [1, 2, 3, 4, 5] as const;

/**
 * Wraps the selection in the style's markers, or removes them when the selection is already wrapped
 * (inside or just outside it). Surrounding spaces stay outside the markers, where markdown needs them.
 * With nothing selected a placeholder is inserted and selected, ready to be typed over.
 */
export function toggleInline(text: string, selection: Selection, style: InlineStyle): TextEdit {
  const { marker, placeholder } = INLINE_MARKERS[style];
  const selected = text.slice(selection.start, selection.end);
  const m = marker.length;
  // **word** selected with its markers: unwrap.
  if (selected.length >= 2 * m && selected.startsWith(marker) && selected.endsWith(marker)) {
    const inner = selected.slice(m, -m);
    return { from: selection.start, to: selection.end, insert: inner, select: { start: selection.start, end: selection.start + inner.length } };
  }
  // word selected, markers just around it: unwrap.
  if (
    selection.start >= m &&
    text.slice(selection.start - m, selection.start) === marker &&
    text.slice(selection.end, selection.end + m) === marker &&
    selected.length > 0
  ) {
    return { from: selection.start - m, to: selection.end + m, insert: selected, select: { start: selection.start - m, end: selection.end - m } };
  }
  if (selected.length === 0) {
    const insert = `${marker}${placeholder}${marker}`;
    return { from: selection.start, to: selection.end, insert, select: { start: selection.start + m, end: selection.start + m + placeholder.length } };
  }
  const leading = /^\s*/.exec(selected)?.[0] ?? '';
  const trailing = /\s*$/.exec(selected.slice(leading.length))?.[0] ?? '';
  const core = selected.slice(leading.length, selected.length - trailing.length);
  const insert = `${leading}${marker}${core}${marker}${trailing}`;
  const coreStart = selection.start + leading.length + m;
  return { from: selection.start, to: selection.end, insert, select: { start: coreStart, end: coreStart + core.length } };
}

/** Start of the line holding `index`. */
function lineStart(text: string, index: number): number {
  return text.lastIndexOf('\n', index - 1) + 1;
}

function lineEnd(text: string, index: number): number {
  const end = text.indexOf('\n', index);
  return end === -1 ? text.length : end;
}

/**
 * Makes the selected lines (or the cursor's line) headings of `level`, replacing any heading marks they
 * had; applying the same level again turns them back into plain paragraphs.
 */
export function setHeading(text: string, selection: Selection, level: number): TextEdit {
  const from = lineStart(text, selection.start);
  // A selection ending at the very start of a line does not include that line.
  const lastIndex = selection.end > selection.start && text[selection.end - 1] === '\n' ? selection.end - 1 : selection.end;
  const to = lineEnd(text, Math.max(lastIndex, from));
  const lines = text.slice(from, to).split('\n');
  const prefix = `${'#'.repeat(level)} `;
  const allAtLevel = lines.every((line) => line.startsWith(prefix) && !line.startsWith(`${prefix.trimEnd()}#`));
  const changed = lines.map((line) => {
    const bare = line.replace(/^#{1,6}\s+/, '');
    if (allAtLevel) return bare;
    // Blank lines between selected paragraphs stay blank.
    if (lines.length > 1 && line.trim() === '') return line;
    return `${prefix}${bare}`;
  });
  const insert = changed.join('\n');
  // With a single line and nothing selected, the cursor goes to the end of the heading text.
  const select =
    selection.start === selection.end && lines.length === 1
      ? { start: from + insert.length, end: from + insert.length }
      : { start: from, end: from + insert.length };
  return { from, to, insert, select };
}

/**
 * A link: the selection becomes the link text and the URL placeholder is selected for typing; a
 * selection that already is a URL becomes the address, with the text selected instead.
 */
export function insertLink(text: string, selection: Selection): TextEdit {
  const selected = text.slice(selection.start, selection.end);
  if (/^(https?:\/\/|mailto:|\/)\S*$/i.test(selected.trim())) {
    const label = 'link text';
    const insert = `[${label}](${selected.trim()})`;
    return { from: selection.start, to: selection.end, insert, select: { start: selection.start + 1, end: selection.start + 1 + label.length } };
  }
  const label = selected.length > 0 ? selected : 'link text';
  const url = 'https://';
  const insert = `[${label}](${url})`;
  const urlStart = selection.start + label.length + 3;
  return selected.length > 0
    ? { from: selection.start, to: selection.end, insert, select: { start: urlStart, end: urlStart + url.length } }
    : { from: selection.start, to: selection.end, insert, select: { start: selection.start + 1, end: selection.start + 1 + label.length } };
}

/**
 * Inserts a block (an image, a video embed) at the cursor on lines of its own, so markdown reads it as
 * its own paragraph; the cursor lands after it.
 */
export function insertBlock(text: string, selection: Selection, block: string): TextEdit {
  const before = text.slice(0, selection.start);
  const after = text.slice(selection.end);
  const lead = before === '' || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
  const trail = after === '' ? '\n' : after.startsWith('\n\n') ? '' : after.startsWith('\n') ? '\n' : '\n\n';
  const insert = `${lead}${block}${trail}`;
  const caret = selection.start + lead.length + block.length + trail.length;
  return { from: selection.start, to: selection.end, insert, select: { start: caret, end: caret } };
}

/** Applies an edit to a string (what the browser does when execCommand is unavailable). */
export function applyEdit(text: string, edit: TextEdit): string {
  return text.slice(0, edit.from) + edit.insert + text.slice(edit.to);
}

/** Markdown for an image: alt text with its brackets escaped, the URL with spaces and parentheses encoded. */
export function imageMarkdown(alt: string, url: string): string {
  const safeAlt = alt
    .replace(/[[\]\\]/g, (char) => `\\${char}`)
    .replace(/\s+/g, ' ')
    .trim();
  const safeUrl = url.replace(/ /g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29');
  return `![${safeAlt}](${safeUrl})`;
}

/** A video item's privacy-friendly embed (the sanitiser keeps youtube-nocookie iframes only). */
export function videoEmbed(title: string, url: string): string {
  return `<iframe src="${url.replace(/"/g, '%22')}" title="${escapeHtml(title) || 'YouTube video'}" allowfullscreen></iframe>`;
}
