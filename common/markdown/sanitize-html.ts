// sanitizeHtml: the same allowlist as renderMarkdown, for HTML that did not come from markdown.
import type { Root } from 'hast';
import { finalizeToHtml, isStackOverflow, parseHtmlFragment } from './finalize.ts';

/**
 * Returns the safe subset of an HTML fragment, as a browser would parse it. Idempotent.
 * HTML nested too deeply to parse comes back as escaped text.
 */
export function sanitizeHtml(html: string): string {
  let tree: Root;
  try {
    tree = parseHtmlFragment(html);
  } catch (error) {
    if (!isStackOverflow(error)) throw error;
    tree = { type: 'root', children: [{ type: 'text', value: html }] };
  }
  return finalizeToHtml(tree);
}
