// A formula in the site search (docs/decisions/0030-search-indexes-tex.md, 0049): the index holds its TeX
// source, so a search for a macro or a variable name finds it, but a reader of the results should not
// see raw TeX (`T_{\text{RSS}} = \sqrt{\sum_{i=1}`, issue 28, 2.12). The markdown pipeline brackets the
// TeX it leaves in the index with two marker characters (search-hints.ts); the search page finds them in
// an excerpt and shows the TeX between them in a readable form (readableTex). The markers are Unicode's
// invisible math operators: wherever the annotation's text is shown after all (a mail client without
// MathML or KaTeX's sheet), they show as nothing, and no one types them. No import: the search page's
// script takes this file alone.

/** Opens the TeX source of a formula in the indexed text (U+2063 INVISIBLE SEPARATOR). */
export const TEX_START = '\u2063';
/** Closes it (U+2064 INVISIBLE PLUS). */
export const TEX_END = '\u2064';

/** The TeX source as it goes into the index: bracketed, each marker a word of its own. */
const MARKERS = new RegExp(`([${TEX_START}${TEX_END}])`);

export function markTexForSearch(tex: string): string {
  return `${TEX_START} ${tex} ${TEX_END}`;
}

export function isMarkedTex(text: string): boolean {
  return text.startsWith(TEX_START) && text.endsWith(TEX_END);
}

const SYMBOLS: Readonly<Record<string, string>> = {
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  delta: 'δ',
  epsilon: 'ε',
  varepsilon: 'ε',
  zeta: 'ζ',
  eta: 'η',
  theta: 'θ',
  vartheta: 'ϑ',
  iota: 'ι',
  kappa: 'κ',
  lambda: 'λ',
  mu: 'μ',
  nu: 'ν',
  xi: 'ξ',
  pi: 'π',
  rho: 'ρ',
  sigma: 'σ',
  tau: 'τ',
  upsilon: 'υ',
  phi: 'φ',
  varphi: 'φ',
  chi: 'χ',
  psi: 'ψ',
  omega: 'ω',
  Gamma: 'Γ',
  Delta: 'Δ',
  Theta: 'Θ',
  Lambda: 'Λ',
  Xi: 'Ξ',
  Pi: 'Π',
  Sigma: 'Σ',
  Phi: 'Φ',
  Psi: 'Ψ',
  Omega: 'Ω',
  sum: '∑',
  prod: '∏',
  int: '∫',
  oint: '∮',
  infty: '∞',
  partial: '∂',
  nabla: '∇',
  sqrt: '√',
  cdot: '·',
  times: '×',
  div: '÷',
  pm: '±',
  mp: '∓',
  ast: '∗',
  circ: '∘',
  bullet: '•',
  leq: '≤',
  le: '≤',
  geq: '≥',
  ge: '≥',
  neq: '≠',
  ne: '≠',
  approx: '≈',
  sim: '∼',
  simeq: '≃',
  equiv: '≡',
  propto: '∝',
  ll: '≪',
  gg: '≫',
  to: '→',
  rightarrow: '→',
  leftarrow: '←',
  Rightarrow: '⇒',
  Leftarrow: '⇐',
  leftrightarrow: '↔',
  Leftrightarrow: '⇔',
  mapsto: '↦',
  in: '∈',
  notin: '∉',
  subset: '⊂',
  subseteq: '⊆',
  supset: '⊃',
  cup: '∪',
  cap: '∩',
  emptyset: '∅',
  forall: '∀',
  exists: '∃',
  neg: '¬',
  land: '∧',
  lor: '∨',
  ldots: '…',
  cdots: '⋯',
  dots: '…',
  vdots: '⋮',
  prime: '′',
  degree: '°',
  angle: '∠',
  perp: '⊥',
  parallel: '∥',
  mid: '|',
  vert: '|',
  Vert: '‖',
  lvert: '|',
  rvert: '|',
  lVert: '‖',
  rVert: '‖',
  langle: '⟨',
  rangle: '⟩',
  lfloor: '⌊',
  rfloor: '⌋',
  lceil: '⌈',
  rceil: '⌉',
  hbar: 'ℏ',
  ell: 'ℓ',
  Re: 'ℜ',
  Im: 'ℑ',
};
/** Commands that only set spacing or sizing: a space, or nothing. */
const SPACES: Readonly<Record<string, string>> = { quad: ' ', qquad: ' ', ',': ' ', ';': ' ', ':': ' ', ' ': ' ', '!': '' };
const DROPPED = new Set(['left', 'right', 'big', 'Big', 'bigg', 'Bigg', 'bigl', 'bigr', 'Bigl', 'Bigr', 'displaystyle', 'textstyle', 'limits', 'nolimits']);
/** Commands whose argument is plain text in another font: the argument is what a reader reads. */
const FONTS =
  'text|textrm|textit|textbf|mathrm|mathit|mathbf|mathsf|mathtt|mathcal|mathbb|boldsymbol|operatorname|mbox|hat|bar|vec|tilde|dot|overline|underline';

const WITH_ARGUMENTS = new RegExp(`^(?:${FONTS}|sqrt|frac|dfrac|tfrac)$`);
const FONT_GROUP = new RegExp(`\\\\(?:${FONTS})\\{([^{}]*)\\}`, 'g');
/** `\{` and `\}` stand for braces a reader sees; held aside while the grouping braces are worked out. */
const OPEN_BRACE = '\uE002';
const CLOSE_BRACE = '\uE003';

const SUPERSCRIPTS: Readonly<Record<string, string>> = {
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
  '+': '⁺',
  '-': '⁻',
  '=': '⁼',
  '(': '⁽',
  ')': '⁾',
  n: 'ⁿ',
  i: 'ⁱ',
  T: 'ᵀ',
};
const SUBSCRIPTS: Readonly<Record<string, string>> = {
  '0': '₀',
  '1': '₁',
  '2': '₂',
  '3': '₃',
  '4': '₄',
  '5': '₅',
  '6': '₆',
  '7': '₇',
  '8': '₈',
  '9': '₉',
  '+': '₊',
  '-': '₋',
  '=': '₌',
  '(': '₍',
  ')': '₎',
  a: 'ₐ',
  e: 'ₑ',
  h: 'ₕ',
  i: 'ᵢ',
  j: 'ⱼ',
  k: 'ₖ',
  l: 'ₗ',
  m: 'ₘ',
  n: 'ₙ',
  o: 'ₒ',
  p: 'ₚ',
  r: 'ᵣ',
  s: 'ₛ',
  t: 'ₜ',
  u: 'ᵤ',
  v: 'ᵥ',
  x: 'ₓ',
};

/** `x` as sub- or superscript characters when every character has one, else marked with `_` or `^`. */
function script(kind: '_' | '^', text: string): string {
  const table = kind === '_' ? SUBSCRIPTS : SUPERSCRIPTS;
  const chars = [...text.replace(/\s+/g, '')];
  if (chars.length > 0 && chars.every((char) => table[char] !== undefined)) return chars.map((char) => table[char]).join('');
  return chars.length > 1 && kind === '^' ? `^(${text.trim()})` : `${kind}${text.trim()}`;
}

/** `(x)` around more than one token, so `√(a + b)` and `(a)/(b)` read as meant. */
const grouped = (text: string) => (/^[\p{L}\p{N}]+$/u.test(text.trim()) ? text.trim() : `(${text.trim()})`);

/**
 * A TeX fragment as a reader can read it: `T_{\text{RSS}} = \sqrt{\sum_{i=1}^{n} T_i^2}` becomes
 * `T_RSS = √(∑ᵢ₌₁ⁿ Tᵢ²)`. Also for a piece cut out of a formula (an excerpt's edge splits it anywhere):
 * unbalanced braces are dropped, unknown commands lose their backslash. The result has no backslash.
 */
export function readableTex(tex: string): string {
  let text = tex
    .replace(/\\\\/g, ' ')
    .replace(/\\\{/g, OPEN_BRACE)
    .replace(/\\\}/g, CLOSE_BRACE)
    .replace(/\\([%$&#_])/g, '$1')
    .replace(/\\([a-zA-Z]+)\s*/g, (whole, name: string) => {
      if (WITH_ARGUMENTS.test(name)) return whole.trimEnd();
      if (DROPPED.has(name)) return '';
      if (SPACES[name] !== undefined) return SPACES[name];
      const symbol = SYMBOLS[name];
      // A symbol keeps the space after it as a separator; a function name (\log, \max) too.
      return symbol === undefined ? `${name}${whole.endsWith(' ') ? ' ' : ''}` : `${symbol}${whole.endsWith(' ') ? ' ' : ''}`;
    })
    .replace(/\\([,;: !])/g, (_, name: string) => SPACES[name] ?? '');
  // Innermost groups first, until none is left: fonts, roots, fractions, scripts; a bare group (TeX's
  // own grouping) only when none of those applies, so it never takes a root's or fraction's braces.
  for (let round = 0; round < 50; round++) {
    const before = text;
    text = text
      .replace(FONT_GROUP, '$1')
      .replace(/\\sqrt\{([^{}]*)\}/g, (_, inner: string) => `√${grouped(inner)}`)
      .replace(/\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}/g, (_, top: string, bottom: string) => `${grouped(top)}/${grouped(bottom)}`)
      .replace(/([_^])\{([^{}]*)\}/g, (_, kind: '_' | '^', inner: string) => script(kind, inner))
      .replace(/([_^])([\p{L}\p{N}])/gu, (_, kind: '_' | '^', char: string) => script(kind, char));
    if (text === before) text = text.replace(/(?<!\\(?:sqrt|[dt]?frac|\}))\{([^{}]*)\}/, '$1');
    if (text === before) break;
  }
  return text
    .replace(/\\(?:sqrt)/g, '√')
    .replace(/\\[a-zA-Z]+/g, '')
    .replace(/[{}\\]/g, '')
    .replace(new RegExp(OPEN_BRACE, 'g'), '{')
    .replace(new RegExp(CLOSE_BRACE, 'g'), '}')
    .replace(/\s+/g, ' ');
}

/** A run of an excerpt: text, and whether the search marked it as a match. */
export interface ExcerptPart {
  text: string;
  marked: boolean;
}

/**
 * An excerpt's parts with each formula's TeX (between the markers, or up to or from a marker the excerpt
 * cut off) replaced by its readable form, and the markers gone. Matches inside a formula stay marked.
 */
export function readableExcerpt(parts: readonly ExcerptPart[]): ExcerptPart[] {
  const whole = parts.map((part) => part.text).join('');
  const firstStart = whole.indexOf(TEX_START);
  const firstEnd = whole.indexOf(TEX_END);
  // The excerpt began inside a formula when its first marker is an end.
  let inTex = firstEnd !== -1 && (firstStart === -1 || firstEnd < firstStart);
  const out: ExcerptPart[] = [];
  // The end marker was a word of its own, so punctuation right after a formula ("$x$.") came apart from it.
  let afterFormula = false;
  for (const part of parts) {
    let text = '';
    for (const piece of part.text.split(MARKERS)) {
      if (piece === TEX_START) inTex = true;
      else if (piece === TEX_END) [inTex, afterFormula] = [false, true];
      else if (piece !== '') {
        if (afterFormula && /^\s*[.,;:!?)]/.test(piece)) {
          text = text.trimEnd();
          text += piece.trimStart();
        } else text += inTex ? readableTex(piece) : piece;
        afterFormula = false;
      }
    }
    out.push({ text, marked: part.marked });
  }
  // Markers were words of their own: the spaces around them are doubled now.
  for (let index = 0; index < out.length; index++) {
    const part = out[index]!;
    part.text = part.text.replace(/ {2,}/g, ' ');
    const previous = out[index - 1];
    if (previous?.text.endsWith(' ') && part.text.startsWith(' ')) part.text = part.text.slice(1);
  }
  return out.filter((part) => part.text !== '' || part.marked);
}
