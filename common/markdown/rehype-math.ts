// Math with KaTeX, as rehype-katex did it (the elements remark-math and ```math blocks leave, their text
// rendered in place), but through renderKatexToHast: without writing KaTeX's HTML and parsing it again, and
// with the KaTeX the site's stylesheet comes from (rehype-katex carried its own, older copy, whose class names
// that stylesheet no longer styles: docs/decisions/0068-math-without-reparse.md).
import type { ElementContent, Root } from 'hast';
import { toText } from 'hast-util-to-text';
import type { KatexOptions } from 'katex';
import { SKIP, visitParents } from 'unist-util-visit-parents';
import { renderKatexToHast } from './katex-hast.ts';

export default function rehypeMath(options: KatexOptions) {
  return (tree: Root): void => {
    visitParents(tree, 'element', (element, parents) => {
      const classes = Array.isArray(element.properties.className) ? element.properties.className : [];
      const languageMath = classes.includes('language-math'); // ```math
      const mathDisplay = classes.includes('math-display'); // remark-math's $$…$$
      if (!languageMath && !mathDisplay && !classes.includes('math-inline')) return;
      let parent = parents[parents.length - 1];
      let scope = element;
      let displayMode = mathDisplay;
      // A ```math block: the whole <pre> is replaced, in display mode.
      if (element.tagName === 'code' && languageMath && parent?.type === 'element' && parent.tagName === 'pre') {
        scope = parent;
        parent = parents[parents.length - 2];
        displayMode = true;
      }
      if (!parent) return;
      const value = toText(scope, { whitespace: 'pre' });
      let result: ElementContent[];
      try {
        // KaTeX shows its own parse errors (throwOnError: false); anything else it throws is shown like one.
        result = renderKatexToHast(value, { ...options, displayMode });
      } catch (error) {
        result = [
          {
            type: 'element',
            tagName: 'span',
            properties: { className: ['katex-error'], style: `color:${options.errorColor ?? '#cc0000'}`, title: String(error) },
            children: [{ type: 'text', value }],
          },
        ];
      }
      parent.children.splice(parent.children.indexOf(scope), 1, ...result);
      return SKIP;
    });
  };
}
