// The one walk over a hast tree's elements for the passes that run on every rendering: the sanitiser's
// policies, the search hints, the mail's and the plain text's changes. unist-util-visit walks the same
// order but makes a closure and a copy of the ancestor list for every node; KaTeX's formulas are hundreds of
// nodes each, and the sanitiser runs its passes at least twice per body (finalize.ts), so those walks were a
// fifth of rendering a post with math (docs/decisions/0054-element-walk.md). The mdast passes keep visit.
import type { Element, Root } from 'hast';

/**
 * What the visitor says of the element it was given:
 * - nothing: go on into its children, then to its next sibling;
 * - 'skip': go to its next sibling without entering it;
 * - an index: the element was replaced in or removed from `parent`; go on with whatever sits at that index
 *   of `parent` now (what was taken out is not entered: nothing of it is in the tree any more).
 */
export type ElementVisitor = (element: Element, index: number, parent: Root | Element) => number | 'skip' | void;

/** Every element of the tree, parents before their children, in document order. */
export function walkElements(tree: Root, visitor: ElementVisitor): void {
  walkChildren(tree, visitor);
}

function walkChildren(parent: Root | Element, visitor: ElementVisitor): void {
  let index = 0;
  // Read on every step: a visitor may replace or remove children of `parent`.
  while (index < parent.children.length) {
    const child = parent.children[index]!;
    if (child.type !== 'element') {
      index += 1;
      continue;
    }
    const next = visitor(child, index, parent);
    if (typeof next === 'number') {
      index = next;
      continue;
    }
    if (next !== 'skip') walkChildren(child, visitor);
    index += 1;
  }
}
