// Test helper: reads sanitiser output back the way a browser would (parse5 via rehype-raw) and
// lists anything that could run script or leave the content box.
import type { Element, Root } from 'hast';
import rehypeRaw from 'rehype-raw';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';

const parser = unified().use(rehypeRaw).freeze();

export function parseHtml(html: string): Root {
  return parser.runSync({ type: 'root', children: [{ type: 'raw', value: html }] }) as Root;
}

const FORBIDDEN_TAGS = new Set([
  'script',
  'style',
  'base',
  'meta',
  'link',
  'form',
  'object',
  'embed',
  'applet',
  'frame',
  'frameset',
  'template',
  'noscript',
  'foreignobject',
  'use',
  'animate',
  'set',
  'maction',
  'annotation-xml',
  'textarea',
  'select',
  'button',
]);
const URL_PROPERTIES = [
  'href',
  'src',
  'action',
  'formAction',
  'xLinkHref',
  'poster',
  'data',
  'cite',
  'background',
  'srcSet',
  'longDesc',
  'codeBase',
  'manifest',
  'ping',
  'lowSrc',
  'dynsrc',
];
const SAFE_DATA_IMAGE = /^data:image\/(?:png|gif|jpeg|webp);base64,/i;

/** The scheme a browser would read from a URL attribute (tabs/newlines removed, ends trimmed). */
export function urlScheme(value: string): string | null {
  // eslint-disable-next-line no-control-regex -- browsers drop these, so an attacker may use them
  const cleaned = value.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '');
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(cleaned);
  return match ? match[1]!.toLowerCase() : null;
}

/** Human-readable problems found in the HTML; empty when it is safe. */
export function findDangers(html: string): string[] {
  const problems: string[] = [];
  if (/<script/i.test(html)) problems.push('literal <script');
  visit(parseHtml(html), 'element', (element: Element) => {
    const tag = element.tagName.toLowerCase();
    if (FORBIDDEN_TAGS.has(tag)) problems.push(`<${tag}>`);
    for (const [name, raw] of Object.entries(element.properties)) {
      if (/^on/i.test(name)) problems.push(`${tag}[${name}]`);
      if (name === 'srcDoc') problems.push(`${tag}[srcdoc]`);
      if (name === 'httpEquiv') problems.push(`${tag}[http-equiv]`);
      const value = Array.isArray(raw) ? raw.join(' ') : String(raw);
      if (URL_PROPERTIES.includes(name)) {
        const scheme = urlScheme(value);
        if (scheme && !['http', 'https', 'mailto', 'tel', 'data'].includes(scheme)) problems.push(`${tag}[${name}]=${scheme}:`);
        if (scheme === 'data' && !(tag === 'img' && name === 'src' && SAFE_DATA_IMAGE.test(value))) problems.push(`${tag}[${name}]=data:`);
      }
      if (name === 'style' && /url\(|expression|javascript|behavior|binding|@import|\\/i.test(value)) problems.push(`${tag}[style]=${value}`);
    }
    if (tag === 'iframe' && !/^https:\/\/www\.youtube-nocookie\.com\/embed\/[\w-]{11}(\?|$)/.test(String(element.properties.src ?? ''))) {
      problems.push(`iframe src=${String(element.properties.src)}`);
    }
  });
  return problems;
}
