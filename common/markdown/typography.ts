// Typographic punctuation (curly quotes, dashes, ellipses): the body pipeline's step, and the same step for
// text that is not markdown, such as post and section titles (issue 14: titles kept straight quotes while
// the bodies under them got typographic ones). One set of options, so both always agree.
import type { Root } from 'mdast';
import remarkSmartypants from 'remark-smartypants';
import { unified } from 'unified';

/** `--` an en dash, `---` an em dash, as typographers expect. */
export const SMARTYPANTS_OPTIONS = { dashes: 'oldschool' } as const;

const smartypants = unified().use(remarkSmartypants, SMARTYPANTS_OPTIONS).freeze();

/** Plain text (not markdown: `*` and `_` stay as they are) with the body's typographic punctuation. */
export function typographicText(text: string): string {
  if (!/['"`.-]/.test(text)) return text;
  const tree: Root = { type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', value: text }] }] };
  smartypants.runSync(tree);
  const paragraph = tree.children[0];
  const node = paragraph?.type === 'paragraph' ? paragraph.children[0] : undefined;
  return node?.type === 'text' ? node.value : text;
}
