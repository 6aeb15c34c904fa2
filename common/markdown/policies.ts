// Rules the schema alone cannot express, applied after hast-util-sanitize: URL schemes checked the
// way a browser reads them, data: only for raster images, YouTube-only iframes, a CSS allowlist for
// style attributes (KaTeX positions glyphs with them), prefixed ids, and rel on external links.
// Every rule is idempotent: running the sanitiser on its own output changes nothing.
import type { Element, Properties, Root } from 'hast';
import { createBoundedCache } from '../bounded-cache.ts';
import { collectText } from './depth.ts';
import { MATHML_TAGS, SVG_TAGS } from './schema.ts';
import { walkElements } from './walk-elements.ts';

export const ID_PREFIX = 'user-content-';

const URL_ATTRIBUTES = ['href', 'src', 'cite', 'poster'] as const;
const ALLOWED_SCHEMES: Record<(typeof URL_ATTRIBUTES)[number], readonly string[]> = {
  href: ['http', 'https', 'mailto', 'tel'],
  src: ['http', 'https', 'data'],
  cite: ['http', 'https'],
  poster: ['http', 'https'],
};
const DATA_IMAGE = /^data:image\/(?:png|gif|jpeg|webp);base64,[a-z0-9+/]+=*$/i;

/**
 * What a browser would make of the URL: it removes tabs and newlines anywhere and C0 controls and
 * spaces at both ends before reading the scheme ("java&#x09;script:" is "javascript:").
 * Returns the cleaned URL with a lowercase scheme, or null when the scheme is not allowed.
 */
export function checkUrl(value: string, allowed: readonly string[]): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is being removed
  const cleaned = value.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(cleaned);
  if (!scheme) return cleaned; // relative: same origin, or "//host" (http/https)
  const name = scheme[1]!.toLowerCase();
  if (!allowed.includes(name)) return null;
  return name + cleaned.slice(name.length);
}

/** Cleans URL attributes before the schema's own protocol check sees them (it is case-sensitive). */
export function normalizeUrls(tree: Root): void {
  walkElements(tree, (element) => {
    for (const attribute of URL_ATTRIBUTES) {
      const value = element.properties[attribute];
      if (value === undefined || value === null) continue;
      const url = checkUrl(String(value), ALLOWED_SCHEMES[attribute]);
      if (url === null) delete element.properties[attribute];
      else element.properties[attribute] = url;
    }
  });
}

const YOUTUBE_EMBED = /^(?:https?:)?\/\/(?:www\.)?(?:youtube\.com|youtube-nocookie\.com)\/embed\/([A-Za-z0-9_-]{11})(?:\?([A-Za-z0-9_=&;.-]*))?$/i;
const YOUTUBE_ALLOW = 'accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture';

/** The privacy-enhanced embed URL for a YouTube embed link, or null for anything else. */
export function youtubeEmbedUrl(src: string): string | null {
  const match = YOUTUBE_EMBED.exec(src);
  if (!match) return null;
  const query = match[2] ? `?${match[2]}` : '';
  return `https://www.youtube-nocookie.com/embed/${match[1]}${query}`;
}

// KaTeX's inline layout needs these; nothing here can load a resource or escape the content box
// (no url(), no position other than relative, no quotes or escapes that could smuggle either).
const STYLE_PROPERTIES = new Set([
  'height',
  'min-height',
  'max-height',
  'width',
  'min-width',
  'max-width',
  'vertical-align',
  'top',
  'bottom',
  'left',
  'right',
  'margin',
  'margin-top',
  'margin-right',
  'margin-bottom',
  'margin-left',
  'padding',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
  'border',
  'border-width',
  'border-style',
  'border-color',
  'border-top-width',
  'border-right-width',
  'border-bottom-width',
  'border-left-width',
  'border-top-style',
  'border-right-style',
  'border-bottom-style',
  'border-left-style',
  'color',
  'background-color',
  'text-align',
  'text-shadow',
  'font-style',
  'font-weight',
  'text-decoration',
  'white-space',
  'position',
]);
const STYLE_VALUE = /^[-+#%.,()\w\s]+$/;
const STYLE_FUNCTION = /([a-z-]+)\(/gi;
const STYLE_FUNCTIONS = new Set(['rgb', 'rgba', 'hsl', 'hsla', 'calc']);

/**
 * KaTeX writes a few hundred distinct styles ("height:0.6444em;", "margin-right:0.0278em;") over and over: each
 * is filtered once (the filter was 1.4% of a body's rendering in a profile). Bounded, cleared when full.
 */
const filteredStyles = createBoundedCache<string, string | null>(4096);

/** The style attribute with only allowed declarations, in KaTeX's own "prop:value;" form. */
export function filterStyle(style: string): string | null {
  return filteredStyles.get(style, filterStyleDeclarations);
}

function filterStyleDeclarations(style: string): string | null {
  const kept: string[] = [];
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration.slice(colon + 1).trim();
    if (!STYLE_PROPERTIES.has(property) || !STYLE_VALUE.test(value)) continue;
    if (property === 'position' && value.toLowerCase() !== 'relative') continue;
    const functions = [...value.matchAll(STYLE_FUNCTION)].map((match) => match[1]!.toLowerCase());
    if (functions.some((name) => !STYLE_FUNCTIONS.has(name))) continue;
    kept.push(`${property}:${value}`);
  }
  return kept.length > 0 ? `${kept.join(';')};` : null;
}

function isExternal(href: string): boolean {
  return /^(?:https?:)?\/\//i.test(href);
}

function enforceElement(element: Element, index: number, parent: Element | Root): number | undefined {
  const props: Properties = element.properties;

  const src = props.src === undefined || props.src === null ? undefined : String(props.src);
  if (src !== undefined && /^data:/i.test(src) && !(element.tagName === 'img' && DATA_IMAGE.test(src))) {
    delete props.src;
  }

  if (element.tagName === 'iframe') {
    const embed = src === undefined ? null : youtubeEmbedUrl(src);
    if (embed === null) {
      parent.children.splice(index, 1);
      return index; // visit the node that moved into this slot
    }
    element.children = [];
    element.properties = {
      src: embed,
      title: props.title ?? 'YouTube video',
      width: props.width ?? 560,
      height: props.height ?? 315,
      allow: YOUTUBE_ALLOW,
      allowFullScreen: true,
      loading: 'lazy',
      // YouTube refuses embeds without a referrer; the origin alone is enough.
      referrerPolicy: 'strict-origin-when-cross-origin',
      ...(props.className ? { className: props.className } : {}),
    };
    return undefined;
  }

  if (typeof props.style === 'string') {
    const style = filterStyle(props.style);
    if (style === null) delete props.style;
    else props.style = style;
  }

  if (element.tagName === 'a' && typeof props.href === 'string' && isExternal(props.href)) {
    props.rel = ['noopener', 'noreferrer'];
  }
  if (element.tagName === 'img') {
    props.loading ??= 'lazy';
    props.decoding ??= 'async';
  }
  if (scrollsSideways(element)) props.tabIndex = 0;
  return undefined;
}

/**
 * The blocks the page's styles let scroll sideways when they are wider than the column (code, tables and
 * displayed formulas on a phone: src/styles/global.css, `.prose`). Each takes focus, so a keyboard can
 * scroll it too (WCAG 2.1.1; docs/product/reading.md#markdown). Whatever tabindex the content gave
 * them is replaced; the schema keeps it from every other element.
 */
function scrollsSideways(element: Element): boolean {
  if (element.tagName === 'pre' || element.tagName === 'table') return true;
  const className = element.properties.className;
  return element.tagName === 'span' && Array.isArray(className) && className.includes('katex-display');
}

function prefixId(id: string): string {
  return id.startsWith(ID_PREFIX) ? id : ID_PREFIX + id;
}

/**
 * Ids from content must not collide with the page's own (#main-content, an article's slug, a global
 * a script reads): every id gets a prefix, and fragment links and aria references that point at an
 * id of the same content follow it. Links to ids outside the content (another article) stay.
 */
function prefixIds(tree: Root): void {
  const ids = new Set<string>();
  walkElements(tree, (element) => {
    const id = element.properties.id;
    if (id === undefined || id === null || id === '') {
      delete element.properties.id;
      return;
    }
    element.properties.id = prefixId(String(id));
    ids.add(String(element.properties.id));
  });
  const follow = (target: string): string => (!target.startsWith(ID_PREFIX) && ids.has(ID_PREFIX + target) ? ID_PREFIX + target : target);
  walkElements(tree, (element) => {
    const href = element.properties.href;
    if (typeof href === 'string' && href.startsWith('#')) element.properties.href = `#${follow(href.slice(1))}`;
    for (const key of ['ariaDescribedBy', 'ariaLabelledBy'] as const) {
      const refs: unknown = element.properties[key];
      if (refs === undefined || refs === null) continue;
      const list = Array.isArray(refs) ? refs.map(String) : String(refs).split(/\s+/);
      element.properties[key] = list.map(follow);
    }
  });
}

const MATHML = new Set(MATHML_TAGS);
const SVG = new Set(SVG_TAGS);

/**
 * Inside <math> only MathML elements, inside <svg> only SVG ones, and their parts never outside.
 * An HTML element inside <math> is where namespace-confusion (mutation) XSS starts: the next parse
 * of the serialised HTML would move it out of the formula. KaTeX's own output never mixes them.
 */
function enforceNamespaces(tree: Root): void {
  walkElements(tree, (element, index, parent) => {
    const context = parent.type === 'element' ? namespaceOf(parent) : 'html';
    const tag = element.tagName;
    const fits =
      context === 'math'
        ? MATHML.has(tag) && tag !== 'math'
        : context === 'svg'
          ? SVG.has(tag) && tag !== 'svg'
          : context === 'text'
            ? false
            : (!MATHML.has(tag) || tag === 'math') && (!SVG.has(tag) || tag === 'svg');
    if (fits) return;
    parent.children[index] = { type: 'text', value: collectText(element) };
    return index + 1;
  });
}

/**
 * What may appear inside `element`. Its own tag decides, because the walk is top-down: an element
 * that does not fit its parent has already been replaced before its children are looked at.
 */
function namespaceOf(element: Element): 'html' | 'math' | 'svg' | 'text' {
  if (element.tagName === 'annotation') return 'text';
  if (MATHML.has(element.tagName)) return 'math';
  if (SVG.has(element.tagName)) return 'svg';
  return 'html';
}

/** The post-schema rules, in order. */
export function enforcePolicies(tree: Root): void {
  enforceNamespaces(tree);
  walkElements(tree, enforceElement);
  prefixIds(tree);
}
