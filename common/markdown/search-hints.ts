// What the site search (Pagefind, at publish) should not index in rendered markdown. KaTeX writes each
// formula three times: the visual HTML (`.katex-html`, aria-hidden), the MathML presentation, and the
// TeX source in an <annotation>. Indexed as text, the first two ran together into excerpts like
// "TRSS=i=1∑nTi2" (issue 14); only the annotation, the formula as its author wrote it, stays indexed.
// Runs after the sanitiser (which rightly lets no author set data-* attributes of its own).
import type { Element, Root } from 'hast';
import { visit } from 'unist-util-visit';

function ignoreForSearch(element: Element): void {
  element.properties.dataPagefindIgnore = '';
}

export function hideRenderedMathFromSearch(tree: Root): void {
  visit(tree, 'element', (element) => {
    const classes = element.properties.className;
    if (Array.isArray(classes) && classes.includes('katex-html')) {
      ignoreForSearch(element);
      return 'skip';
    }
    if (element.tagName === 'semantics') {
      // <semantics><mrow>presentation</mrow><annotation encoding="application/x-tex">source</annotation></semantics>
      for (const child of element.children) if (child.type === 'element' && child.tagName !== 'annotation') ignoreForSearch(child);
      return 'skip';
    }
    return undefined;
  });
}
