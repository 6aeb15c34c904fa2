// The tree walk every markdown plugin uses (unist-util-visit-parents) runs patched: its upstream code renamed
// the visitor function for every node it met (Object.defineProperty, for nicer stack traces), 17.6% of a
// body's rendering in a profile (docs/decisions/0066-tree-walk-patch.md). `npm install` applies patches/ (postinstall);
// an install that skipped it (--ignore-scripts) shows here.
import { visitParents } from 'unist-util-visit-parents';
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../common/markdown/render.ts';

describe('the markdown tree walk', () => {
  it('visits every node without renaming its visitor per node (the patch is applied)', () => {
    const tree = {
      type: 'root',
      children: [
        { type: 'element', tagName: 'p', properties: {}, children: [{ type: 'text', value: 'one' }] },
        { type: 'element', tagName: 'em', properties: {}, children: [{ type: 'text', value: 'two' }] },
      ],
    };
    const seen: string[] = [];
    const stacks: string[] = [];
    visitParents(tree, (node, parents) => {
      seen.push(`${'  '.repeat(parents.length)}${node.type}`);
      stacks.push(new Error('where').stack ?? '');
    });
    expect(seen).toEqual(['root', '  element', '    text', '  element', '    text']);
    // Unpatched, each frame of the walk is named after its node: "node (element<p>)".
    for (const stack of stacks) expect(stack).not.toMatch(/node \(/);
  });

  it('leaves the rendering as it was', () => {
    expect(renderMarkdown('A *walk*, "quoted" -- and $x^2$.')).toMatch(/^<p>A <em>walk<\/em>, “quoted” – and <span class="katex">/);
  });
});
