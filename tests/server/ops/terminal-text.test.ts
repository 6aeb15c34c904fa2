// The one escaping of text printed by the command-line tools (server/ops/terminal-text.ts, issue 29 item 2).
import { describe, expect, it } from 'vitest';
import { terminalText } from '../../../server/ops/terminal-text.ts';

describe('terminalText', () => {
  it('shows control, line-separator and bidi characters as visible escapes and leaves every script alone', () => {
    expect(terminalText('Lab\r\n  type perpetual')).toBe('Lab\\x0D\\x0A  type perpetual');
    expect(terminalText('\u001b]0;owned\u0007')).toBe('\\x1B]0;owned\\x07');
    expect(terminalText('a\u0000b\u007f\u009b')).toBe('a\\x00b\\x7F\\x9B');
    expect(terminalText('cp\u202eexe\u2066\u200e\u200f\u061c\u2028')).toBe('cp\\u{202E}exe\\u{2066}\\u{200E}\\u{200F}\\u{061C}\\u{2028}');
    expect(terminalText('Zoë Ŝtraße, Ноутбук 研究室, שלום')).toBe('Zoë Ŝtraße, Ноутбук 研究室, שלום');
    expect(terminalText(42)).toBe('42');
  });
});
