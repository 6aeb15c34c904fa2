// The sanitiser's allowlist (hast-util-sanitize schema). Anything not named here is removed:
// unknown elements are unwrapped (their text stays), the `strip` ones vanish with their content,
// and unknown attributes (every on* handler among them) are dropped. URL-bearing attributes are
// checked again, more strictly, in policies.ts.
import type { Schema } from 'hast-util-sanitize';

const HTML_TAGS = [
  'a', 'abbr', 'b', 'bdi', 'bdo', 'blockquote', 'br', 'caption', 'cite', 'code', 'col', 'colgroup', 'dd',
  'del', 'details', 'dfn', 'div', 'dl', 'dt', 'em', 'figcaption', 'figure', 'h1', 'h2', 'h3', 'h4', 'h5',
  'h6', 'hr', 'i', 'iframe', 'img', 'input', 'ins', 'kbd', 'li', 'mark', 'ol', 'p', 'picture', 'pre', 'q',
  'rp', 'rt', 'ruby', 's', 'samp', 'section', 'small', 'source', 'span', 'strike', 'strong', 'sub',
  'summary', 'sup', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'time', 'tr', 'tt', 'u', 'ul', 'var',
  'video', 'wbr',
];

// What KaTeX emits: MathML for assistive technology, plus SVG for stretchy glyphs (roots, arrows).
// No <annotation-xml> (an HTML integration point), no <maction>, no SVG <use>/<a>/<foreignObject>/<animate>.
export const MATHML_TAGS = [
  'math', 'semantics', 'annotation', 'mrow', 'mi', 'mn', 'mo', 'ms', 'mtext', 'mspace', 'msup', 'msub',
  'msubsup', 'mfrac', 'msqrt', 'mroot', 'mover', 'munder', 'munderover', 'mtable', 'mtr', 'mtd',
  'mlabeledtr', 'mstyle', 'mpadded', 'mphantom', 'menclose', 'merror',
];
export const SVG_TAGS = ['svg', 'path', 'line'];

const MATHML_ATTRIBUTES = [
  'display', 'mathvariant', 'stretchy', 'fence', 'separator', 'lspace', 'rspace', 'depth', 'voffset',
  'columnalign', 'columnlines', 'columnspacing', 'rowspacing', 'rowlines', 'rowalign', 'scriptlevel',
  'displaystyle', 'minsize', 'maxsize', 'accent', 'accentunder', 'notation', 'linethickness', 'mathcolor',
  'mathbackground', 'mathsize', 'largeop', 'movablelimits', 'symmetric', 'linebreak', 'align', 'form',
  'width', 'height',
];

export const SANITIZE_SCHEMA: Schema = {
  tagNames: [...HTML_TAGS, ...MATHML_TAGS, ...SVG_TAGS],
  // Removed together with their content (text inside them is not meant to be read).
  strip: ['script', 'style', 'template', 'noscript', 'textarea', 'title', 'xmp', 'noembed', 'noframes', 'plaintext', 'select', 'object', 'embed', 'applet'],
  attributes: {
    '*': ['className', 'id', 'title', 'lang', 'dir', 'ariaHidden', 'ariaLabel', 'ariaDescribedBy', 'ariaLabelledBy', 'style', 'align', 'width', 'height'],
    a: ['href', 'hrefLang', 'dataFootnoteRef', 'dataFootnoteBackref'],
    abbr: ['title'],
    blockquote: ['cite'],
    q: ['cite'],
    del: ['cite', 'dateTime'],
    ins: ['cite', 'dateTime'],
    time: ['dateTime'],
    details: ['open'],
    img: ['src', 'alt', 'loading', 'decoding'],
    iframe: ['src', 'allowFullScreen'],
    video: ['src', 'poster', 'controls', 'loop', 'muted', 'playsInline', 'preload'],
    source: ['src', 'type'],
    input: [['type', 'checkbox'], ['disabled', true], 'checked'],
    ol: ['start', 'reversed', 'type'],
    li: ['value'],
    td: ['colSpan', 'rowSpan'],
    th: ['colSpan', 'rowSpan', 'scope'],
    col: ['span'],
    colgroup: ['span'],
    section: ['dataFootnotes'],
    math: ['xmlns', ...MATHML_ATTRIBUTES],
    annotation: ['encoding'],
    ...Object.fromEntries(MATHML_TAGS.filter((tag) => tag !== 'math' && tag !== 'annotation').map((tag) => [tag, MATHML_ATTRIBUTES])),
    svg: ['xmlns', 'viewBox', 'preserveAspectRatio'],
    path: ['d'],
    line: ['x1', 'y1', 'x2', 'y2', 'strokeWidth'],
  },
  // Table parts only inside a table: elsewhere the HTML parser would move them on the next parse.
  ancestors: {
    caption: ['table'],
    col: ['table'],
    colgroup: ['table'],
    tbody: ['table'],
    td: ['table'],
    tfoot: ['table'],
    th: ['table'],
    thead: ['table'],
    tr: ['table'],
  },
  required: {
    input: { type: 'checkbox', disabled: true },
  },
  // A second line of defence; policies.ts has already normalised and checked every URL.
  protocols: {
    href: ['http', 'https', 'mailto', 'tel'],
    src: ['http', 'https', 'data'],
    cite: ['http', 'https'],
    poster: ['http', 'https'],
  },
  // Id prefixing is done by policies.ts, idempotently (hast-util-sanitize would prefix twice).
  clobber: [],
  clobberPrefix: '',
  allowComments: false,
  allowDoctypes: false,
};
