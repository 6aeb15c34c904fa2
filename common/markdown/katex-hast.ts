// A KaTeX rendering as hast, straight from KaTeX's own tree instead of from its HTML through parse5: the
// same tree as KaTeX's HTML read by the project's HTML parser (parseHtmlFragment), for about half the work
// (docs/decisions/0068-math-without-reparse.md). Each node is built as toMarkup writes it and as the HTML
// parser would read it back (hastscript's h and s, as hast-util-from-parse5 calls them); a node this file does
// not know, or a value the parser would change (a carriage return, a NUL), makes the whole formula go the old
// way: its HTML, parsed. tests/common/markdown/katex-hast.test.ts compares both ways over a corpus of formulas.
import type { Element, ElementContent, Properties } from 'hast';
import { h, s } from 'hastscript';
import katex, { type KatexOptions } from 'katex';
import { createBoundedCache } from '../bounded-cache.ts';
import { parseHtmlFragment } from './finalize.ts';

/** What KaTeX's tree nodes are (katex/src/domTree.js, mathMLTree.js): exported as `__domTree`, not typed. */
export interface KatexNode {
  toMarkup(): string;
}
interface KatexElement extends KatexNode {
  children: KatexNode[];
  classes: string[];
  attributes: Record<string, unknown>;
  style: Record<string, unknown>;
}
interface KatexSymbol extends KatexNode {
  text: string;
  italic: number;
  classes: string[];
  style: Record<string, unknown>;
}
interface KatexSvg extends KatexNode {
  children: KatexNode[];
  attributes: Record<string, unknown>;
}
interface KatexInternals {
  __renderToDomTree(tex: string, options: KatexOptions): KatexNode;
  __domTree: Record<'Span' | 'Anchor' | 'SymbolNode' | 'SvgNode' | 'PathNode' | 'LineNode', new (...args: never[]) => KatexNode>;
}

const internals = katex as unknown as Partial<KatexInternals>;
const domTree = internals.__domTree;

/** A tree this file cannot build exactly: the formula is parsed from its HTML instead. */
class Unconvertible extends Error {}

/** What the HTML parser would not give back as written (line endings normalised, NUL replaced). */
const CHANGED_BY_PARSER = /[\r\0]/;
/** SVG attribute names the parser restores from lower case (parse5's SVG_ATTRS_ADJUSTMENT_MAP, KaTeX's two). */
const SVG_ATTRIBUTE_CASE = new Set(['viewBox', 'preserveAspectRatio']);

function plain(value: unknown): string {
  const text = String(value);
  if (CHANGED_BY_PARSER.test(text)) throw new Unconvertible();
  return text;
}

/** createClass in KaTeX: empty names left out. */
function className(classes: readonly string[]): string {
  return plain(classes.filter((name) => name).join(' '));
}

/** cssStyleToString in KaTeX: camelCase names hyphenated, unset ones left out. */
function cssStyle(style: Record<string, unknown>): string {
  let css = '';
  for (const key of Object.keys(style)) {
    const value = style[key];
    if (value !== undefined) css += key.replace(/([A-Z])/g, '-$1').toLowerCase() + ':' + plain(value) + ';';
  }
  return css;
}

/** makeEm in KaTeX. */
const em = (size: number): string => `${+size.toFixed(4)}em`;

/**
 * The attributes in the order toMarkup writes them; the parser keeps the first of a repeated name and lowers
 * the case of every name (SVG's known ones restored).
 */
function addAttributes(properties: Record<string, string>, attributes: Record<string, unknown>, svg: boolean): void {
  for (const name of Object.keys(attributes)) {
    const lower = name.toLowerCase();
    if (lower !== name && !(svg && SVG_ATTRIBUTE_CASE.has(name))) throw new Unconvertible();
    if (!/^[a-z][a-z0-9-]*$/i.test(name)) throw new Unconvertible();
    if (!Object.hasOwn(properties, name)) properties[name] = plain(attributes[name]);
  }
}

/** The class and style attributes toMarkup writes first, when there are any. */
function classAndStyle(classes: readonly string[], css: string): Record<string, string> {
  const properties: Record<string, string> = {};
  if (classes.length > 0) properties.class = className(classes);
  if (css) properties.style = css;
  return properties;
}

/** Each distinct tag and attributes, converted by hastscript once (KaTeX repeats a few hundred over and over). */
const convertedElements = createBoundedCache<string, Element>(8192);

/**
 * The element hastscript's h (HTML and MathML) or s (SVG) builds from these attributes, with `children`. The
 * conversion of attributes to hast properties is made once per distinct set and copied for each element (the
 * later steps change properties in place); it was about 2% of a body's rendering. Values never hold a NUL
 * (plain() refuses it), so one joins the key.
 */
function element(space: 'html' | 'svg', tagName: string, attributes: Record<string, string>, children: ElementContent[]): Element {
  let key = `${space}\0${tagName}`;
  for (const name of Object.keys(attributes)) key += `\0${name}\0${attributes[name]}`;
  const converted = convertedElements.get(key, () => (space === 'svg' ? s : h)(tagName, attributes, []));
  return { type: 'element', tagName: converted.tagName, properties: copyProperties(converted.properties), children };
}

function copyProperties(properties: Properties): Properties {
  const copy: Properties = {};
  for (const name of Object.keys(properties)) {
    const value = properties[name];
    copy[name] = Array.isArray(value) ? [...value] : value;
  }
  return copy;
}

/** `nodes` built one after another by `add` (addHtml, addMathMl or addSvg). */
function build(nodes: readonly KatexNode[], add: (node: KatexNode, out: ElementContent[]) => void): ElementContent[] {
  const out: ElementContent[] = [];
  for (const node of nodes) add(node, out);
  return out;
}

/** Text beside text is one text node once parsed; empty text is none. */
function pushText(out: ElementContent[], value: string): void {
  if (value === '') return;
  const text = plain(value);
  const last = out[out.length - 1];
  if (last?.type === 'text') last.value += text;
  else out.push({ type: 'text', value: text });
}

function isInstance(node: KatexNode, name: keyof KatexInternals['__domTree']): boolean {
  return domTree !== undefined && node instanceof domTree[name];
}

/** DocumentFragment (not exported): children only, written one after another. */
function isFragment(node: KatexNode): node is KatexNode & { children: KatexNode[] } {
  return Array.isArray((node as { children?: unknown }).children) && !('attributes' in node) && !('type' in node) && !('text' in node);
}

/** The visual (HTML and SVG) part of KaTeX's tree. */
function addHtml(node: KatexNode, out: ElementContent[]): void {
  if (isInstance(node, 'Span')) {
    const katexElement = node as KatexElement;
    const properties = classAndStyle(katexElement.classes, cssStyle(katexElement.style));
    addAttributes(properties, katexElement.attributes, false);
    out.push(element('html', 'span', properties, build(katexElement.children, katexElement.classes.includes('katex-mathml') ? addMathMl : addHtml)));
  } else if (isInstance(node, 'SymbolNode')) {
    const symbol = node as KatexSymbol;
    const css = (symbol.italic > 0 ? `margin-right:${em(symbol.italic)};` : '') + cssStyle(symbol.style);
    if (symbol.classes.length === 0 && !css) return pushText(out, symbol.text);
    const children: ElementContent[] = [];
    pushText(children, symbol.text);
    out.push(element('html', 'span', classAndStyle(symbol.classes, css), children));
  } else if (isInstance(node, 'SvgNode')) {
    const svg = node as KatexSvg;
    const properties: Record<string, string> = { xmlns: 'http://www.w3.org/2000/svg' };
    addAttributes(properties, svg.attributes, true);
    out.push(element('svg', 'svg', properties, build(svg.children, addSvg)));
  } else if (isFragment(node)) {
    for (const child of node.children) addHtml(child, out);
  } else throw new Unconvertible();
}

/** ESCAPE_LOOKUP in KaTeX, reversed: a path's data as toMarkup wrote it. */
const UNESCAPE: Record<string, string> = { '&amp;': '&', '&gt;': '>', '&lt;': '<', '&quot;': '"', '&#x27;': "'" };

function addSvg(node: KatexNode, out: ElementContent[]): void {
  if (isInstance(node, 'PathNode')) {
    // Its data comes from a table KaTeX does not export; toMarkup writes exactly `<path d="…"/>`.
    const markup = node.toMarkup();
    if (!markup.startsWith('<path d="') || !markup.endsWith('"/>')) throw new Unconvertible();
    const data = markup.slice('<path d="'.length, -'"/>'.length);
    if (data.includes('"')) throw new Unconvertible();
    out.push(element('svg', 'path', { d: plain(data.replace(/&(?:amp|gt|lt|quot|#x27);/g, (entity) => UNESCAPE[entity]!)) }, []));
  } else if (isInstance(node, 'LineNode')) {
    const properties: Record<string, string> = {};
    addAttributes(properties, (node as unknown as { attributes: Record<string, unknown> }).attributes, true);
    out.push(element('svg', 'line', properties, []));
  } else throw new Unconvertible();
}

/** The MathML part (mathMLTree.js: MathNode, TextNode, SpaceNode; none exported, so told apart by shape). */
function addMathMl(node: KatexNode, out: ElementContent[]): void {
  const shape = node as Partial<{
    type: unknown;
    children: KatexNode[];
    classes: string[];
    attributes: Record<string, unknown>;
    text: unknown;
    width: unknown;
    character: unknown;
  }>;
  if (typeof shape.type === 'string' && Array.isArray(shape.children) && Array.isArray(shape.classes) && shape.attributes) {
    if (!/^[a-z]+$/.test(shape.type)) throw new Unconvertible();
    const properties: Record<string, string> = {};
    addAttributes(properties, shape.attributes, false);
    // MathNode writes its class after its attributes (as `class ="…"`, which the parser reads as class).
    if (shape.classes.length > 0 && !Object.hasOwn(properties, 'class')) properties.class = className(shape.classes);
    out.push(element('html', shape.type, properties, build(shape.children, addMathMl)));
  } else if (typeof shape.text === 'string' && !('children' in shape)) {
    pushText(out, shape.text);
  } else if (typeof shape.width === 'number' && 'character' in shape) {
    if (typeof shape.character === 'string') out.push(element('html', 'mtext', {}, [{ type: 'text', value: plain(shape.character) }]));
    else out.push(element('html', 'mspace', { width: em(shape.width) }, []));
  } else if (isFragment(node)) {
    for (const child of node.children) addMathMl(child, out);
  } else throw new Unconvertible();
}

/**
 * `tex` rendered by KaTeX as hast: what `parseHtmlFragment(katex.renderToString(tex, options))` gives, without
 * writing and parsing the HTML. Throws what KaTeX throws.
 */
export function renderKatexToHast(tex: string, options: KatexOptions): ElementContent[] {
  if (!internals.__renderToDomTree) return parsed(katex.renderToString(tex, options));
  const tree = internals.__renderToDomTree(tex, options);
  return katexTreeToHast(tree) ?? parsed(tree.toMarkup());
}

/** KaTeX's tree (`katex.__renderToDomTree`) as hast, or undefined when it holds what this file cannot build exactly. */
export function katexTreeToHast(tree: KatexNode): ElementContent[] | undefined {
  try {
    return build([tree], addHtml);
  } catch (error) {
    if (error instanceof Unconvertible) return undefined;
    throw error;
  }
}

function parsed(html: string): ElementContent[] {
  return parseHtmlFragment(html).children as ElementContent[];
}
