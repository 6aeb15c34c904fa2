// Issue 28, 2.9: the recovery codes file names the product and the account, not the page's host.
import { describe, expect, it } from 'vitest';
import { recoveryCodesFile } from '../../../src/lib/recovery-codes-file.ts';

describe('recoveryCodesFile', () => {
  it('is named after the product and the e-mail, and headed with them', () => {
    const file = recoveryCodesFile('Dimensional Control', 'ada@example.com', ['aaaa-bbbb', 'cccc-dddd']);
    expect(file.name).toBe('dimensional-control-recovery-codes-ada@example.com.txt');
    expect(file.text.split('\n')).toEqual([
      'Dimensional Control recovery codes for ada@example.com',
      'Each code signs you in once when you cannot use your authenticator app.',
      '',
      'aaaa-bbbb',
      'cccc-dddd',
      '',
    ]);
  });
});
