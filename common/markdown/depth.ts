// Nesting limits (docs/product/constants.md: markdown nesting depth 100). The unified tools recurse once per level,
// so a hostile body (10,000 nested blockquotes or <div>s) would overflow the stack in whichever
// step comes next. These walks are iterative and replace anything deeper than the limit with its
// plain text, so every later step sees a shallow tree.
import type { Element, ElementContent, Root as HastRoot, RootContent as HastContent } from 'hast';
import type { Root as MdastRoot, RootContent as MdastContent } from 'mdast';

export const NESTING_LIMIT = 100;
/** Hard cap including KaTeX's own markup, which nests deeply by design. */
export const TOTAL_NESTING_LIMIT = 1000;

interface TreeNode {
  type: string;
  value?: unknown;
  children?: TreeNode[];
}

/** Concatenated text of a subtree, without recursion. */
export function collectText(node: TreeNode): string {
  let text = '';
  const stack: TreeNode[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (typeof current.value === 'string' && current.type !== 'comment') text += current.value;
    const children = current.children;
    if (children) for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return text;
}

// A run of container openers at the start of a line: blockquote markers and list bullets/numbers.
const CONTAINER_PREFIX = /^(?:[ \t]{0,3}(?:>|[-+*](?=[ \t])|\d{1,9}[.)](?=[ \t]))[ \t]?)+/;
const CONTAINER_MARKER = /[ \t]{0,3}(?:>|[-+*](?=[ \t])|\d{1,9}[.)](?=[ \t]))[ \t]?/g;

/**
 * Trims lines that open more than `limit` containers at once (`>>>>…`, `- - - …`) before the parser
 * sees them: micromark's time grows with the square of such nesting, so 30,000 `>` would take seconds
 * before failing. Ordinary documents are returned unchanged.
 */
export function limitContainerPrefixes(markdown: string, limit = NESTING_LIMIT): string {
  if (!/(?:>|[-+*.)][ \t])[ \t]*(?:>|[-+*][ \t]|\d)/.test(markdown)) return markdown;
  return markdown.replace(/^.*$/gm, (line) => {
    const prefix = CONTAINER_PREFIX.exec(line)?.[0];
    if (!prefix) return line;
    const markers = prefix.match(CONTAINER_MARKER) ?? [];
    if (markers.length <= limit) return line;
    return markers.slice(0, limit).join('') + line.slice(prefix.length);
  });
}

/** Flattens mdast nodes nested deeper than `limit` (root excluded) into text nodes. */
export function limitMdastDepth(root: MdastRoot, limit = NESTING_LIMIT): void {
  const stack: Array<{ node: TreeNode; depth: number }> = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    const children = node.children;
    if (!children) continue;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (!child.children) continue;
      if (depth + 1 > limit) {
        children[i] = { type: 'text', value: collectText(child) } satisfies MdastContent as TreeNode;
      } else {
        stack.push({ node: child, depth: depth + 1 });
      }
    }
  }
}

function isKatexRoot(element: Element): boolean {
  const className = element.properties.className;
  return Array.isArray(className) && (className.includes('katex') || className.includes('katex-display'));
}

/**
 * Flattens hast elements nested deeper than `limit`, not counting the inside of KaTeX output (a
 * formula's own spans are layout, not document structure), and deeper than `totalLimit` counting
 * everything, so a fake `class="katex"` cannot lift the cap.
 */
export function limitHastDepth(root: HastRoot, limit = NESTING_LIMIT, totalLimit = TOTAL_NESTING_LIMIT): void {
  interface Frame {
    children: Array<HastContent | ElementContent>;
    depth: number;
    total: number;
    inMath: boolean;
  }
  const stack: Frame[] = [{ children: root.children, depth: 0, total: 0, inMath: false }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const { children } = frame;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (child.type !== 'element') continue;
      const depth = frame.depth + (frame.inMath ? 0 : 1);
      const total = frame.total + 1;
      if (depth > limit || total > totalLimit) {
        children[i] = { type: 'text', value: collectText(child as TreeNode) };
        continue;
      }
      const inMath = frame.inMath || isKatexRoot(child);
      stack.push({ children: child.children, depth, total, inMath });
    }
  }
}
