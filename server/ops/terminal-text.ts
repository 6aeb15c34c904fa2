// Text from users, customers or files on its way to a terminal (issue 29, item 2): the command-line tools
// (scripts/license-verify.ts, scripts/license-keys.ts, scripts/restore.ts) print names, machine names and
// claims that someone else typed. A raw ESC, BEL, CR/LF or bidi override there rewrites what the operator
// sees (a forged "type perpetual" line, a changed window title, text read backwards), so every such value
// is printed through terminalText, which shows those characters as visible escapes instead.

/**
 * The characters a terminal or a reader does not show as themselves: C0 and C1 controls and DEL, the
 * Unicode line and paragraph separators, and the bidi overrides, isolates and marks. The one definition:
 * the one-line rule of server/http/fields.ts refuses the same set in names and machine fields.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

const CONTROL_OR_BIDI_ALL = new RegExp(CONTROL_OR_BIDI.source, 'gu');

const hex = (code: number, width: number) => code.toString(16).toUpperCase().padStart(width, '0');

/** `value` as text safe to print: each control or bidi character as `\xHH` (up to U+00FF) or `\u{HHHH}`. */
export function terminalText(value: unknown): string {
  return String(value).replace(CONTROL_OR_BIDI_ALL, (character) => {
    const code = character.codePointAt(0) ?? 0;
    return code <= 0xff ? `\\x${hex(code, 2)}` : `\\u{${hex(code, 4)}}`;
  });
}
