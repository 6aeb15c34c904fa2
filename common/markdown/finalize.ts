// The last steps of both renderMarkdown and sanitizeHtml, so that what the editor previews, what
// the build publishes and what sanitizeHtml returns obey exactly the same rules.
import type { Properties, Root } from 'hast';
import { fromParse5 } from 'hast-util-from-parse5';
import { sanitize } from 'hast-util-sanitize';
import { parseFragment } from 'parse5';
import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';
import { limitHastDepth } from './depth.ts';
import { enforcePolicies, normalizeUrls } from './policies.ts';
import { hideRenderedMathFromSearch } from './search-hints.ts';
import { SANITIZE_SCHEMA } from './schema.ts';

const serializer = unified().use(rehypeStringify).freeze();

/**
 * Parses an HTML fragment as a browser with scripting off would (parse5, in a <template> as its context), as
 * hast. The parse rehype-raw makes of a whole fragment, without its detour: hast-util-raw feeds the string to
 * parse5's tokenizer and has it record every node's source position, which nothing here reads. The same trees
 * for about a quarter less of this step's CPU, 3% of a body's, except at the very end of the input, where
 * hast-util-raw dropped what a browser keeps (docs/decisions/0070-html-read-back-direct.md).
 */
export function parseHtmlFragment(html: string): Root {
  return fromParse5(parseFragment(html, { scriptingEnabled: false })) as Root;
}

/**
 * Text is escaped by the serialiser, so in its output every `<` opens a tag, except inside
 * attribute values, where it is legal but makes naive scanners (and people) read `<script` where
 * there is none. Escaping brackets inside double-quoted values keeps the meaning and removes that.
 */
function escapeBracketsInAttributes(html: string): string {
  // By UTF-16 unit: every character it looks at is ASCII, never part of a surrogate pair. The runs between
  // replacements are copied whole, and HTML without a bracket in a value comes back as the very string it
  // was: a string built a character at a time is a rope of thousands of pieces that every later reader (the
  // cache's file write, the page) had to flatten (docs/decisions/0059-finalize-read-back.md).
  let out = '';
  let copied = 0;
  let inTag = false;
  let inValue = false;
  for (let index = 0; index < html.length; index++) {
    const code = html.charCodeAt(index);
    if (!inTag) {
      if (code === 0x3c) inTag = true;
    } else if (inValue) {
      if (code === 0x22) inValue = false;
      else if (code === 0x3c || code === 0x3e) {
        out += html.slice(copied, index) + (code === 0x3c ? '&#x3C;' : '&#x3E;');
        copied = index + 1;
      }
    } else if (code === 0x22) inValue = true;
    else if (code === 0x3e) inTag = false;
  }
  return copied === 0 ? html : out + html.slice(copied);
}

/** The tree sanitised (depth cap, allowlist, policies), and its HTML. */
function sanitizeOnce(tree: Root): { clean: Root; html: string } {
  limitHastDepth(tree);
  normalizeUrls(tree);
  const clean = sanitize(tree, SANITIZE_SCHEMA) as Root;
  enforcePolicies(clean);
  hideRenderedMathFromSearch(clean);
  return { clean, html: escapeBracketsInAttributes(serializer.stringify(clean)) };
}

/**
 * Sanitises a hast tree (depth cap, allowlist, policies) and serialises it. Removing elements can
 * leave structures the HTML parser would rearrange on the next read (a <p> inside a <p> once a
 * <button> between them is gone), so the result is read back as a browser reads it. When that reading is
 * the sanitised tree itself, node for node, the HTML is what a browser will build and is returned (the
 * common case: one parse instead of a second sanitiser pass, docs/decisions/0059-finalize-read-back.md).
 * Otherwise the reading is cleaned again, and again, until the HTML is stable, as before.
 */
export function finalizeToHtml(tree: Root): string {
  const first = sanitizeOnce(tree);
  let html = first.html;
  let readBack = parseHtmlFragment(html);
  if (sameTree(readBack, first.clean)) return html;
  for (let round = 0; round < 3; round++) {
    const next = sanitizeOnce(readBack).html;
    if (next === html) break;
    html = next;
    readBack = parseHtmlFragment(html);
  }
  return html;
}

type TreeNode = Root | Root['children'][number];

/**
 * Whether two hast trees are the same document: the same nodes in the same order, with equal tag names,
 * text and properties (positions and other data aside). Anything it does not know to compare (a
 * <template>'s content, a doctype, raw HTML) counts as different, which only costs the slower check.
 */
function sameTree(a: TreeNode, b: TreeNode): boolean {
  if (a.type !== b.type) return false;
  if (a.type === 'text' || a.type === 'comment') return a.value === (b as typeof a).value;
  if (a.type === 'root') return sameChildren(a.children, (b as typeof a).children);
  if (a.type !== 'element') return false;
  const other = b as typeof a;
  if (a.tagName !== other.tagName || a.content !== undefined || other.content !== undefined) return false;
  return sameProperties(a.properties, other.properties) && sameChildren(a.children, other.children);
}

function sameChildren(a: readonly TreeNode[], b: readonly TreeNode[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (!sameTree(a[index]!, b[index]!)) return false;
  return true;
}

function sameProperties(a: Properties, b: Properties): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    const left = a[key];
    if (!Object.hasOwn(b, key)) return false;
    const right = b[key];
    if (left === right) continue;
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  }
  return true;
}

/** Stack overflow, as V8 (RangeError) and SpiderMonkey (InternalError) report it. */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof Error && (error.name === 'RangeError' || error.name === 'InternalError') && /call stack|recursion/i.test(error.message);
}

/** Text as a paragraph-per-blank-line document: the last resort when a body is too deeply nested. */
export function plainTextTree(text: string): Root {
  const paragraphs = text.split(/\n\s*\n/).filter((part) => part.trim() !== '');
  return {
    type: 'root',
    children: paragraphs.map((part) => ({ type: 'element', tagName: 'p', properties: {}, children: [{ type: 'text', value: part }] })),
  };
}
