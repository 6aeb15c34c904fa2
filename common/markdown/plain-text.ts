// Markdown as readable plain text, for the text part of mailings (issue 14: it was the raw markdown, with
// `# Hello!`, `**…**` and `:tada:` in it). Parsed by the one pipeline (the same plugins as the HTML, so
// emoji shortcodes become emoji and quotes turn typographic alike), then written out as a person would
// type the message in a plain-text mail: headings and paragraphs as lines, emphasis without its markers,
// links as "text (url)", lists with "- " or "1. ", quotes with "> ", math kept as its TeX source.
// Browser-safe like the rest of the pipeline.
import type { Root as HastRoot } from 'hast';
import type { Nodes, Root, RootContent } from 'mdast';
import { isStackOverflow, parseHtmlFragment } from './finalize.ts';
import { collectText, limitContainerPrefixes } from './depth.ts';
import { markdownPlugins } from './render.ts';
import { SANITIZE_SCHEMA } from './schema.ts';
import { walkElements } from './walk-elements.ts';

const UNREAD = new Set(SANITIZE_SCHEMA.strip ?? []);

export interface PlainTextOptions {
  /** Site paths (`/news/…`) in links become absolute against this, as in the HTML part. */
  siteUrl?: string;
}

interface Context {
  siteUrl: string;
  definitions: Map<string, string>;
}

function url(value: string, context: Context): string {
  return value.startsWith('/') && !value.startsWith('//') && context.siteUrl ? `${context.siteUrl}${value}` : value;
}

/** "text (url)", or just one of them when the other adds nothing (an autolink, a mailto of the same address). */
function linkText(text: string, href: string): string {
  const bare = href.replace(/^mailto:/i, '');
  if (!href || text === '' || text === href || text === bare) return text || href;
  return `${text} (${href})`;
}

/** Text of embedded HTML: what a reader of the rendered page would read (no script or style text). */
function htmlText(html: string): string {
  const tree: HastRoot = parseHtmlFragment(html);
  walkElements(tree, (element, index, parent) => {
    if (!UNREAD.has(element.tagName)) return undefined;
    parent.children.splice(index, 1);
    return index;
  });
  return collectText(tree);
}

function inline(nodes: readonly Nodes[], context: Context): string {
  return nodes.map((node) => inlineNode(node, context)).join('');
}

function inlineNode(node: Nodes, context: Context): string {
  switch (node.type) {
    case 'text':
      return node.value;
    case 'inlineCode':
      return node.value;
    case 'inlineMath':
      return `$${node.value}$`;
    case 'break':
      return '\n';
    case 'html':
      return htmlText(node.value);
    case 'link':
      return linkText(inline(node.children, context), url(node.url, context));
    case 'linkReference':
      return linkText(inline(node.children, context), url(context.definitions.get(node.identifier) ?? '', context));
    case 'image':
    case 'imageReference':
      return node.alt ? `[${node.alt}]` : '';
    case 'footnoteReference':
      return `[${node.label ?? node.identifier}]`;
    default:
      return 'children' in node ? inline(node.children as Nodes[], context) : 'value' in node ? String(node.value) : '';
  }
}

const indent = (text: string, prefix: string, first = prefix) =>
  text
    .split('\n')
    .map((line, index) => (index === 0 ? first : line === '' ? prefix.trimEnd() : prefix) + line)
    .join('\n');

function blocks(nodes: readonly RootContent[], context: Context): string {
  return nodes
    .map((node) => block(node, context))
    .filter((text) => text !== '')
    .join('\n\n');
}

function block(node: RootContent, context: Context): string {
  switch (node.type) {
    case 'heading':
    case 'paragraph':
      return inline(node.children, context).trim();
    case 'blockquote':
      return indent(blocks(node.children, context), '> ');
    case 'list': {
      const start = node.start ?? 1;
      return node.children
        .map((item, index) => {
          const marker = node.ordered ? `${start + index}. ` : '- ';
          const check = item.checked === true ? '[x] ' : item.checked === false ? '[ ] ' : '';
          // Tight lists keep their items on consecutive lines, as they were written.
          const body = item.children.map((child) => block(child, context)).join(node.spread || item.spread ? '\n\n' : '\n');
          return indent(`${check}${body}`, ' '.repeat(marker.length), marker);
        })
        .join(node.spread ? '\n\n' : '\n');
    }
    case 'code':
      return node.value;
    case 'math':
      return `$$\n${node.value}\n$$`;
    case 'thematicBreak':
      return '----';
    case 'table':
      return node.children.map((row) => row.children.map((cell) => inline(cell.children, context).trim()).join(' | ')).join('\n');
    case 'html':
      return htmlText(node.value).trim();
    case 'definition':
      return '';
    case 'footnoteDefinition':
      return `[${node.label ?? node.identifier}] ${blocks(node.children, context)}`;
    default:
      return inlineNode(node, context).trim();
  }
}

function collectDefinitions(tree: Root): Map<string, string> {
  const definitions = new Map<string, string>();
  const walk = (node: Nodes) => {
    if (node.type === 'definition') definitions.set(node.identifier, node.url);
    if ('children' in node) for (const child of node.children) walk(child as Nodes);
  };
  walk(tree);
  return definitions;
}

/** The markdown as plain text; a body too deeply nested for the parser comes back as written. */
export function renderPlainText(markdown: string, options: PlainTextOptions = {}): string {
  try {
    const tree = markdownPlugins.runSync(markdownPlugins.parse(limitContainerPrefixes(markdown))) as Root;
    const context: Context = { siteUrl: (options.siteUrl ?? '').replace(/\/+$/, ''), definitions: collectDefinitions(tree) };
    // Footnote definitions go last, as in the rendered page.
    const notes = tree.children.filter((node) => node.type === 'footnoteDefinition');
    const body = tree.children.filter((node) => node.type !== 'footnoteDefinition');
    return blocks([...body, ...notes], context).trim();
  } catch (error) {
    if (!isStackOverflow(error)) throw error;
    return markdown.trim();
  }
}
