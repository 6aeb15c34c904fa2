// renderMarkdown: the one markdown pipeline (docs/engineering.md#technology-choices), used by the static build and by the editor
// preview in the browser, so it imports nothing from node.
import type { Root as HastRoot } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import rehypeRaw from 'rehype-raw';
import rehypeSlug from 'rehype-slug';
import remarkEmoji from 'remark-emoji';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import remarkSmartypants from 'remark-smartypants';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { limitContainerPrefixes, limitMdastDepth } from './depth.ts';
import { finalizeToHtml, isStackOverflow, plainTextTree } from './finalize.ts';
import remarkMark from './remark-mark.ts';
import remarkMathGuard from './remark-math-guard.ts';
import rehypeMath from './rehype-math.ts';
import { SMARTYPANTS_OPTIONS } from './typography.ts';

/** docs/product/constants.md: math macro expansion limit. */
export const MATH_MAX_EXPAND = 1000;

const katexOptions = {
  maxExpand: MATH_MAX_EXPAND,
  maxSize: 50, // em; a \rule{10000em}{…} would otherwise cover the page
  throwOnError: false,
  strict: 'ignore' as const,
  trust: false, // no \href, \url, \includegraphics, \htmlClass …
};

function remarkLimitDepth() {
  return (tree: MdastRoot): void => limitMdastDepth(tree);
}

/** Embedded HTML shown as text: the fallback when it is nested too deeply to parse. */
function remarkHtmlAsText() {
  return (tree: MdastRoot): void => {
    visit(tree, 'html', (node, index, parent) => {
      if (parent && index !== undefined) parent.children[index] = { type: 'text', value: node.value };
    });
  };
}

/** Markdown to mdast with every syntax extension: shared by the HTML renderings and the plain-text one (plain-text.ts). */
export const markdownPlugins = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkMath)
  .use(remarkLimitDepth) // first, so every later (recursive) step sees a shallow tree
  .use(remarkMathGuard)
  .use(remarkEmoji)
  .use(remarkSmartypants, SMARTYPANTS_OPTIONS) // shared with typographicText (titles)
  .use(remarkMark)
  .freeze();

/** Whether the tree holds embedded HTML (remark-rehype's `raw` nodes), the only thing rehype-raw has to parse. */
function containsRaw(node: HastRoot | HastRoot['children'][number]): boolean {
  if (node.type === 'raw') return true;
  if (node.type !== 'root' && node.type !== 'element') return false;
  for (const child of node.children) if (containsRaw(child)) return true;
  return false;
}

/**
 * rehype-raw for a body that embeds HTML. It passes the whole tree through parse5 whatever it holds (about a
 * tenth of a typical body's CPU), which a body without embedded HTML does not need: remark-rehype builds a tree
 * the HTML parser keeps as it is (the 6,837 bodies of the bench's 5,000-post site and the demo rendered to the
 * same bytes either way), and finalizeToHtml reads every result back as a browser would anyway.
 */
function rehypeRawWhereEmbedded() {
  const parseEmbedded = rehypeRaw();
  return (tree: HastRoot, file: Parameters<typeof parseEmbedded>[1]): HastRoot => (containsRaw(tree) ? parseEmbedded(tree, file) : tree);
}

const withHtml = markdownPlugins()
  .use(remarkRehype, { allowDangerousHtml: true })
  .use(rehypeRawWhereEmbedded)
  .use(rehypeSlug)
  .use(rehypeMath, katexOptions)
  .freeze();
const htmlAsText = markdownPlugins().use(remarkHtmlAsText).use(remarkRehype).use(rehypeSlug).use(rehypeMath, katexOptions).freeze();

function toHast(processor: typeof withHtml | typeof htmlAsText, markdown: string): HastRoot {
  return processor.runSync(processor.parse(limitContainerPrefixes(markdown))) as HastRoot;
}

/**
 * Markdown (CommonMark + GFM, smart punctuation, :emoji:, ==mark==, $math$ and $$math$$, embedded
 * HTML) to sanitised HTML. Synchronous and deterministic. A body nested too deeply for the parsers
 * degrades (embedded HTML as text, then the whole body as plain paragraphs) instead of throwing.
 */
export function renderMarkdown(markdown: string): string {
  return renderMarkdownOutcome(markdown).html;
}

/**
 * renderMarkdown's rendering, saying whether it fell back because the body overflowed the stack. Where the
 * fallback sets in depends on the thread's stack size, so a thread other than the build's own (the markdown
 * pre-render's workers, server/publish/markdown-prerender.ts) keeps only renderings that needed none.
 */
export function renderMarkdownOutcome(markdown: string): { html: string; degraded: boolean } {
  for (const processor of [withHtml, htmlAsText]) {
    try {
      return { html: finalizeToHtml(toHast(processor, markdown)), degraded: processor !== withHtml };
    } catch (error) {
      if (!isStackOverflow(error)) throw error;
    }
  }
  return { html: finalizeToHtml(plainTextTree(markdown)), degraded: true };
}
