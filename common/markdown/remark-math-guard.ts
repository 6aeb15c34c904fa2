// KaTeX recurses once per group, and its tree is turned into hast recursively (katex-hast.ts): a formula
// nested hundreds of levels deep would exhaust the stack outside any try/catch. Such formulas are
// shown as their TeX source (as code) instead. Ordinary mathematics never comes close.
import type { Root } from 'mdast';
import { visit } from 'unist-util-visit';

export const MAX_TEX_NESTING = 40;
export const MAX_TEX_LENGTH = 20_000;

/** Deepest nesting of `{…}`, `\left…\right` and `\begin…\end` in a TeX source. */
export function texNestingDepth(tex: string): number {
  let depth = 0;
  let deepest = 0;
  const token = /\\begin\b|\\end\b|\\left\b|\\right\b|\\[{}]|[{}]/g;
  for (const [match] of tex.matchAll(token)) {
    if (match === '\\{' || match === '\\}') continue; // literal braces
    if (match === '{' || match === '\\begin' || match === '\\left') deepest = Math.max(deepest, ++depth);
    else depth = Math.max(0, depth - 1);
  }
  return deepest;
}

export default function remarkMathGuard() {
  return (tree: Root): void => {
    visit(tree, ['math', 'inlineMath'], (node, index, parent) => {
      if (!parent || index === undefined || (node.type !== 'math' && node.type !== 'inlineMath')) return;
      if (texNestingDepth(node.value) <= MAX_TEX_NESTING && node.value.length <= MAX_TEX_LENGTH) return;
      parent.children[index] = node.type === 'math' ? { type: 'code', lang: 'tex', value: node.value } : { type: 'inlineCode', value: node.value };
    });
  };
}
