// What the site search (Pagefind, at publish) should not index in rendered markdown. KaTeX writes each
// formula three times: the visual HTML (`.katex-html`, aria-hidden), the MathML presentation, and the
// TeX source in an <annotation>. Indexed as text, the first two ran together into excerpts like
// "TRSS=i=1∑nTi2" (issue 14); only the annotation, the formula as its author wrote it, stays indexed,
// bracketed so the search page can show it readably (search-tex.ts; issue 28, 2.12). Runs after the
// sanitiser (which rightly lets no author set data-* attributes of its own), on every round of it: an
// annotation already bracketed is left as it is.
import type { Element, Root } from 'hast';
import { isMarkedTex, markTexForSearch } from './search-tex.ts';
import { walkElements } from './walk-elements.ts';

function ignoreForSearch(element: Element): void {
  element.properties.dataPagefindIgnore = '';
}

/** The annotation's TeX between the search markers (no one reads an annotation: browsers do not show it). */
function markTexSource(annotation: Element): void {
  if (annotation.properties.encoding !== 'application/x-tex') return;
  const [source, ...rest] = annotation.children;
  if (rest.length > 0 || source?.type !== 'text' || isMarkedTex(source.value)) return;
  source.value = markTexForSearch(source.value);
}

export function hideRenderedMathFromSearch(tree: Root): void {
  walkElements(tree, (element) => {
    const classes = element.properties.className;
    if (Array.isArray(classes) && classes.includes('katex-html')) {
      ignoreForSearch(element);
      return 'skip';
    }
    if (element.tagName === 'semantics') {
      // <semantics><mrow>presentation</mrow><annotation encoding="application/x-tex">source</annotation></semantics>
      for (const child of element.children) {
        if (child.type !== 'element') continue;
        if (child.tagName === 'annotation') markTexSource(child);
        else ignoreForSearch(child);
      }
      return 'skip';
    }
    return undefined;
  });
}
