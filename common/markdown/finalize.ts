// The last steps of both renderMarkdown and sanitizeHtml, so that what the editor previews, what
// the build publishes and what sanitizeHtml returns obey exactly the same rules.
import type { Root } from 'hast';
import { sanitize } from 'hast-util-sanitize';
import rehypeRaw from 'rehype-raw';
import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';
import { limitHastDepth } from './depth.ts';
import { enforcePolicies, normalizeUrls } from './policies.ts';
import { hideRenderedMathFromSearch } from './search-hints.ts';
import { SANITIZE_SCHEMA } from './schema.ts';

const htmlParser = unified().use(rehypeRaw).freeze();
const serializer = unified().use(rehypeStringify).freeze();

/** Parses an HTML fragment as a browser would (parse5, through hast-util-raw). */
export function parseHtmlFragment(html: string): Root {
  // A root holding one `raw` node is how rehype-raw is asked to parse a whole fragment.
  return htmlParser.runSync({ type: 'root', children: [{ type: 'raw', value: html }] }) as Root;
}

/**
 * Text is escaped by the serialiser, so in its output every `<` opens a tag, except inside
 * attribute values, where it is legal but makes naive scanners (and people) read `<script` where
 * there is none. Escaping brackets inside double-quoted values keeps the meaning and removes that.
 */
function escapeBracketsInAttributes(html: string): string {
  let out = '';
  let inTag = false;
  let inValue = false;
  for (const char of html) {
    if (!inTag) {
      if (char === '<') inTag = true;
      out += char;
    } else if (inValue) {
      if (char === '"') inValue = false;
      out += char === '<' ? '&#x3C;' : char === '>' ? '&#x3E;' : char;
    } else {
      if (char === '"') inValue = true;
      else if (char === '>') inTag = false;
      out += char;
    }
  }
  return out;
}

function sanitizeOnce(tree: Root): string {
  limitHastDepth(tree);
  normalizeUrls(tree);
  const clean = sanitize(tree, SANITIZE_SCHEMA) as Root;
  enforcePolicies(clean);
  hideRenderedMathFromSearch(clean);
  return escapeBracketsInAttributes(serializer.stringify(clean));
}

/**
 * Sanitises a hast tree (depth cap, allowlist, policies) and serialises it. Removing elements can
 * leave structures the HTML parser would rearrange on the next read (a <p> inside a <p> once a
 * <button> between them is gone), so the result is read back and cleaned again until it is stable:
 * the HTML returned is exactly what a browser will build.
 */
export function finalizeToHtml(tree: Root): string {
  let html = sanitizeOnce(tree);
  for (let round = 0; round < 3; round++) {
    const next = sanitizeOnce(parseHtmlFragment(html));
    if (next === html) break;
    html = next;
  }
  return html;
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
