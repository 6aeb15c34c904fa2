// renderKatexToHast (common/markdown/katex-hast.ts) against what it replaces: KaTeX's HTML parsed by the
// project's HTML parser (parseHtmlFragment, parse5 as rehype-katex used it), node for node, over formulas of every kind KaTeX draws (HTML, MathML, SVG, errors,
// colours, spacing, scripts other than Latin) and a few hundred generated ones.
import type { ElementContent } from 'hast';
import katex, { type KatexOptions } from 'katex';
import { describe, expect, it } from 'vitest';
import { parseHtmlFragment } from '../../../common/markdown/finalize.ts';
import { katexTreeToHast, renderKatexToHast, type KatexNode } from '../../../common/markdown/katex-hast.ts';

const OPTIONS: KatexOptions = { maxExpand: 1000, maxSize: 50, throwOnError: false, strict: 'ignore', trust: false };
const renderToDomTree = (katex as unknown as { __renderToDomTree(tex: string, options: KatexOptions): KatexNode }).__renderToDomTree;

/** The old way: KaTeX's HTML, parsed as rehype-katex parsed it. Positions left out, as the pipeline never reads them. */
function parsedHtml(tex: string, options: KatexOptions): unknown {
  return withoutPositions(parseHtmlFragment(katex.renderToString(tex, options)).children);
}

function withoutPositions(nodes: readonly ElementContent[] | unknown): unknown {
  return JSON.parse(JSON.stringify(nodes, (key, value: unknown) => (key === 'position' || key === 'data' ? undefined : value)));
}

const FORMULAS = [
  'x^2 + y_1',
  '\\frac{a}{b} + \\dfrac{1}{2} + \\tfrac{3}{4}',
  '\\sqrt{x} + \\sqrt[3]{y} + \\sqrt{\\frac{a}{b}}',
  '\\int_0^1 f(x)\\,dx = F(1) - F(0)',
  '\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}',
  '\\prod_{k} \\lim_{x \\to 0} \\bigcup_i A_i',
  '\\begin{pmatrix}1 & 2\\\\ 3 & 4\\end{pmatrix}',
  '\\begin{cases} x & x > 0 \\\\ -x & \\text{otherwise} \\end{cases}',
  '\\begin{aligned} a &= b + c \\\\ &= d \\end{aligned}',
  '\\begin{array}{c|l} 1 & a \\\\ \\hline 2 & b \\end{array}',
  '\\overrightarrow{AB} + \\overleftarrow{CD} + \\widehat{xyz} + \\widetilde{abc}',
  '\\overbrace{a+b}^{n} + \\underbrace{c+d}_{m}',
  '\\xrightarrow[below]{above} \\xleftarrow{x}',
  '\\cancel{x} + \\bcancel{y} + \\xcancel{z} + \\sout{w}',
  '\\boxed{E = mc^2} + \\fbox{text}',
  '\\left( \\frac{1}{2} \\right] + \\left\\{ x \\right\\} + \\bigl( y \\bigr)',
  '\\left\\langle \\begin{matrix} a \\\\ b \\\\ c \\\\ d \\end{matrix} \\right\\rangle',
  '\\text{a < b & c > "d" \'e\'}',
  '\\textbf{bold} \\textit{italic} \\mathrm{rm} \\mathsf{sf} \\mathtt{tt}',
  '\\mathbb{R} \\mathcal{C} \\mathfrak{g} \\mathscr{L} \\boldsymbol{\\alpha}',
  '\\color{red}{x} + \\textcolor{#0a0}{y} + \\colorbox{yellow}{z}',
  '\\alpha\\beta\\gamma\\Delta\\Omega \\aleph \\hbar \\nabla \\partial',
  'a\\,b\\:c\\;d\\!e\\quad f\\qquad g \\hspace{1em} h \\kern2pt i',
  'a \\kern3mu b \\mkern5mu c \\mkern-1mu d \\hspace{0.2778em} e',
  '\\not= \\neq \\leq \\geq \\approx \\equiv \\sim \\cong',
  '\\hat{a}\\bar{b}\\vec{c}\\dot{d}\\ddot{e}\\tilde{f}\\breve{g}\\check{h}',
  '\\operatorname{argmax}_x f(x) + \\sin x + \\log_2 n',
  '\\binom{n}{k} + \\dbinom{a}{b} + {n \\choose k}',
  '\\underset{x}{\\arg\\min} \\overset{!}{=} \\stackrel{def}{=}',
  '\\phantom{x} \\hphantom{y} \\vphantom{z} \\smash{w} \\mathllap{a} \\mathrlap{b}',
  '\\rule{1em}{2pt} \\raisebox{0.5em}{up}',
  '\\substack{a \\\\ b} \\sideset{_a}{^b}\\sum',
  '\\tag{1} x = y',
  '\\displaystyle \\sum x \\textstyle \\sum y \\scriptstyle z \\scriptscriptstyle w',
  '\\Huge A \\tiny b \\normalsize c',
  '日本語 + 한국어 + हिन्दी + é ï í ì',
  '\\href{https://example.com}{link}',
  '\\includegraphics{https://example.com/x.png}',
  '\\htmlClass{x}{y}',
  '\\frac{',
  '\\undefinedcommand{x}',
  '^',
  '\\verb|<b>&amp;|',
  'x_{\\textrm{long subscript with spaces}}^{2^{3^{4}}}',
  '\\oint \\iint \\iiint \\oiint',
  '\\lVert x \\rVert \\lvert y \\rvert \\lfloor z \\rfloor \\lceil w \\rceil',
  '\\mathchoice{D}{T}{S}{SS}',
  '\\begin{bmatrix} \\ddots & \\vdots \\\\ \\cdots & 0 \\end{bmatrix}',
  '\\ce{H2O}',
];

describe('renderKatexToHast', () => {
  it('builds what parsing KaTeX’s HTML built, for formulas of every kind, inline and displayed', () => {
    for (const tex of FORMULAS) {
      for (const displayMode of [false, true]) {
        const options = { ...OPTIONS, displayMode };
        expect(withoutPositions(renderKatexToHast(tex, options)), tex).toEqual(parsedHtml(tex, options));
      }
    }
  });

  it('builds the tree itself for ordinary formulas, without the parser', () => {
    const unconverted = FORMULAS.filter((tex) => katexTreeToHast(renderToDomTree(tex, OPTIONS)) === undefined);
    // Even \href and \includegraphics (drawn as text without trust: KaTeX's links and images would go to the parser).
    expect(unconverted).toEqual([]);
  });

  it('builds the same as the parser for a few hundred generated formulas', () => {
    const atoms = [
      'x',
      'y_1',
      '2',
      '\\alpha',
      '\\frac{a}{b}',
      '\\sqrt{z}',
      '\\text{t}',
      '\\left(',
      '\\right)',
      '+',
      '=',
      '\\cdot',
      '^{2}',
      '\\vec{v}',
      '\\,',
      '{',
      '}',
      '\\hat{p}',
      '&',
      '\\\\',
    ];
    let seed = 31;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    let converted = 0;
    for (let formula = 0; formula < 300; formula++) {
      const length = 1 + Math.floor(next() * 12);
      const tex = Array.from({ length }, () => atoms[Math.floor(next() * atoms.length)]).join(' ');
      const options = { ...OPTIONS, displayMode: next() < 0.3 };
      expect(withoutPositions(renderKatexToHast(tex, options)), tex).toEqual(parsedHtml(tex, options));
      if (katexTreeToHast(renderToDomTree(tex, options)) !== undefined) converted++;
    }
    expect(converted).toBe(300);
  });

  it('leaves a formula to the parser when the parser would change a value (a carriage return in text)', () => {
    const tex = '\\text{one\rtwo}';
    expect(katexTreeToHast(renderToDomTree(tex, OPTIONS))).toBeUndefined();
    expect(withoutPositions(renderKatexToHast(tex, OPTIONS))).toEqual(parsedHtml(tex, OPTIONS));
  });

  it('gives every element properties of its own, however often the same ones recur', () => {
    // The conversion of a distinct set of attributes is kept and copied (later steps change properties in place).
    const first = renderKatexToHast('\\sqrt{x} + \\vec{v}', OPTIONS);
    const elements = (nodes: readonly ElementContent[]): Extract<ElementContent, { type: 'element' }>[] =>
      nodes.flatMap((node) => (node.type === 'element' ? [node, ...elements(node.children)] : []));
    for (const element of elements(first)) {
      if (Array.isArray(element.properties.className)) element.properties.className.push('changed');
      element.properties.style = 'changed';
      element.properties.extra = 'changed';
    }
    const second = renderKatexToHast('\\sqrt{x} + \\vec{v}', OPTIONS);
    expect(JSON.stringify(second)).not.toContain('changed');
    expect(withoutPositions(second)).toEqual(parsedHtml('\\sqrt{x} + \\vec{v}', OPTIONS));
  });

  it('throws what KaTeX throws with throwOnError', () => {
    expect(() => renderKatexToHast('\\frac{', { ...OPTIONS, throwOnError: true })).toThrow(katex.ParseError);
  });
});
