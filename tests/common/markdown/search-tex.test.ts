// Issue 28, 2.12: search excerpts showed a formula as raw TeX. The index keeps the TeX (so it is found by
// it), bracketed by the markdown pipeline; the search page shows the bracketed TeX in a readable form.
import { describe, expect, it } from 'vitest';
import { readableExcerpt, readableTex, TEX_END, TEX_START, type ExcerptPart } from '../../../common/markdown/search-tex.ts';

const text = (parts: ExcerptPart[]) => parts.map((part) => part.text).join('');

describe('readableTex', () => {
  it.each([
    ['T_{\\text{RSS}} = \\sqrt{\\sum_{i=1}^{n} T_i^2}', 'T_RSS = √(∑ᵢ₌₁ⁿ Tᵢ²)'],
    ['T_{\\text{WC}} = \\sum_i |T_i|', 'T_WC = ∑ᵢ |Tᵢ|'],
    ['\\sigma = \\sqrt{\\frac{1}{N}\\sum_{i=1}^{N}(x_i - \\mu)^2}', 'σ = √(1/N∑ᵢ₌₁^N(xᵢ - μ)²)'],
    ['\\frac{a+b}{2} \\leq \\alpha', '(a+b)/2 ≤ α'],
    ['\\left\\{ x \\right\\} \\log x', '{ x } log x'],
  ])('%s reads as %s', (tex, readable) => {
    expect(readableTex(tex)).toBe(readable);
  });

  it('reads a piece an excerpt cut out of a formula, unbalanced braces and all', () => {
    expect(readableTex('T_{\\text{RSS}} = \\sqrt{\\sum_{i=1}')).toBe('T_RSS = √∑ᵢ₌₁');
    expect(readableTex('^{n} T_i^2}')).toBe('ⁿ Tᵢ²');
  });

  it('leaves no backslash, whatever the command', () => {
    expect(readableTex('\\unknowncommand{x} \\mathbb{R}^3 \\, \\quad \\\\ \\%')).not.toMatch(/\\/);
  });
});

describe('readableExcerpt', () => {
  it('shows the bracketed TeX readably, keeps the text around it, and keeps matches inside it marked', () => {
    const parts = readableExcerpt([
      { text: `Root-sum-square stack-up: ${TEX_START} T_{\\text{RSS}} = `, marked: false },
      { text: '\\sqrt{\\sum_{i=1}^{n}', marked: true },
      { text: ` T_i^2} ${TEX_END} Worst case: ${TEX_START} T_{\\text{WC}} = \\sum_i |T_i| ${TEX_END} .`, marked: false },
    ]);
    expect(parts).toEqual([
      { text: 'Root-sum-square stack-up: T_RSS = ', marked: false },
      { text: '√∑ᵢ₌₁ⁿ', marked: true },
      { text: ' Tᵢ² Worst case: T_WC = ∑ᵢ |Tᵢ|.', marked: false },
    ]);
  });

  it('reads an excerpt that begins or ends inside a formula (one marker cut off)', () => {
    expect(text(readableExcerpt([{ text: `\\sum_{i=1}^{n} T_i^2} ${TEX_END} Worst case:`, marked: false }]))).toBe('∑ᵢ₌₁ⁿ Tᵢ² Worst case:');
    expect(text(readableExcerpt([{ text: `stack-up: ${TEX_START} T_{\\text{RSS}} = \\sqrt{\\sum_{i=1}`, marked: false }]))).toBe('stack-up: T_RSS = √∑ᵢ₌₁');
  });

  it('leaves text outside the markers alone, backslashes included (a Windows path in the documentation)', () => {
    const parts = [{ text: 'Install into C:\\Program Files\\Dimensional with x_{1} in it', marked: false }];
    expect(readableExcerpt(parts)).toEqual(parts);
  });
});
