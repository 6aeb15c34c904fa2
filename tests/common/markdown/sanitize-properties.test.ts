// Properties of the sanitiser (fast-check): idempotent, and nothing dangerous survives, whatever
// the input — arbitrary text, or HTML-ish strings assembled from known-dangerous fragments.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderMarkdown, sanitizeHtml } from '../../../common/markdown/index.ts';
import { findDangers } from './inspect-html.ts';

const FRAGMENTS = [
  '<script>',
  '</script>',
  '<script src=//evil.example/x.js>',
  '<img src=x onerror=alert(1)>',
  '<img ',
  ' src=',
  ' onerror=',
  'alert(1)',
  '<svg',
  '<svg onload=alert(1)>',
  '</svg>',
  '<math>',
  '</math>',
  '<mtext>',
  '<mglyph>',
  '<style>',
  '</style>',
  '<table>',
  '<td>',
  '<a href="',
  '<a href=',
  '">',
  '>',
  '<',
  '"',
  "'",
  '=',
  ' ',
  '\n',
  '\n\n',
  '\t',
  '&#x09;',
  '&#10;',
  '&#106;',
  '&colon;',
  'javascript:',
  'jAvAsCrIpT:',
  'java\tscript:',
  ' javascript:',
  'vbscript:',
  'file:///',
  'data:text/html,',
  'data:image/png;base64,AA==',
  'data:image/svg+xml,',
  '<iframe src=',
  '<iframe srcdoc="',
  '</iframe>',
  'https://www.youtube.com/embed/dQw4w9WgXcQ',
  '//evil.example',
  '<base href=//evil.example>',
  '<meta http-equiv=refresh content="0;url=javascript:alert(1)">',
  '<form action=',
  '<button formaction=',
  '<object data=',
  '<embed src=',
  '<link rel=stylesheet href=',
  '<details open ontoggle=alert(1)>',
  '<video poster=',
  '<source src=',
  '<noscript>',
  '</noscript>',
  '<template>',
  '<textarea>',
  '</textarea>',
  '<title>',
  '<!--',
  '-->',
  '<![CDATA[',
  ']]>',
  '<annotation-xml encoding="text/html">',
  ' style="',
  'background:url(javascript:alert(1))',
  'width:expression(alert(1))',
  'position:fixed',
  ' xlink:href=',
  ' href=',
  '<use ',
  '<animate ',
  '[x](',
  ')',
  '![i](',
  '<javascript:alert(1)>',
  '$',
  '$$',
  '\\href{javascript:alert(1)}{x}',
  '==',
  '`',
  '```',
  '> ',
  '- ',
  '# ',
  ':smile:',
  '[^1]',
  '[^1]: ',
];

const dangerousHtml = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 30 }).map((parts) => parts.join(''));
const mixed = fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 8 })), { maxLength: 30 }).map((parts) => parts.join(''));
// Elements the allowlist unwraps or drops, and the ones whose nesting the HTML parser rearranges once they
// are gone (a <p> that a <button> held inside another <p>): the sanitiser must read its output back and
// return what a browser builds from it (common/markdown/finalize.ts).
const STRUCTURE = [
  '<p>',
  '</p>',
  '<button>',
  '</button>',
  '<form>',
  '</form>',
  '<select>',
  '<option>',
  '<div>',
  '</div>',
  '<li>',
  '<ul>',
  '</ul>',
  '<table>',
  '<td>',
  '<tr>',
  '<a href="https://a.example/">',
  '</a>',
  '<object>',
  '</object>',
  '<h1>',
  'text',
  ' ',
];
const structural = fc.array(fc.constantFrom(...STRUCTURE), { maxLength: 24 }).map((parts) => parts.join(''));

const RUNS = { numRuns: 400 };

describe('sanitizeHtml', () => {
  it.each([
    ['arbitrary strings', fc.string({ unit: 'binary', maxLength: 200 })],
    ['HTML built from dangerous fragments', mixed],
    ['HTML whose nesting the parser rearranges once elements are unwrapped', structural],
  ])('is idempotent on %s', (_name, inputs) => {
    fc.assert(
      fc.property(inputs, (input) => {
        const once = sanitizeHtml(input);
        expect(sanitizeHtml(once)).toBe(once);
      }),
      RUNS,
    );
  });

  it('lets nothing dangerous through', () => {
    fc.assert(
      fc.property(mixed, (input) => {
        expect(findDangers(sanitizeHtml(input))).toEqual([]);
      }),
      RUNS,
    );
  });
});

describe('sanitizeHtml, read back', () => {
  it.each([
    ['a <p> a <button> held inside a <p>', '<p>a<button><p>b</p></button></p>', '<p>a</p><p>b</p><p></p>'],
    ['a list item a <button> held inside a list item', '<ul><li>a<button><li>b</li></button></li></ul>', '<ul><li>a</li><li>b</li></ul>'],
  ])('returns what a browser builds once %s is unwrapped', (_name, input, expected) => {
    expect(sanitizeHtml(input)).toBe(expected);
  });
});

describe('renderMarkdown', () => {
  it('lets nothing dangerous through for arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (input) => {
        expect(findDangers(renderMarkdown(input))).toEqual([]);
      }),
      RUNS,
    );
  });

  it('lets nothing dangerous through for HTML-ish markdown built from dangerous fragments', () => {
    fc.assert(
      fc.property(dangerousHtml, (input) => {
        expect(findDangers(renderMarkdown(input))).toEqual([]);
      }),
      RUNS,
    );
  });

  it('produces output the sanitiser leaves unchanged', () => {
    fc.assert(
      fc.property(mixed, (input) => {
        const html = renderMarkdown(input);
        expect(sanitizeHtml(html)).toBe(html);
      }),
      RUNS,
    );
  });
});
