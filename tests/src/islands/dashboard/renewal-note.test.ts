// What "My software" tells a user who may not have a newer release (issue 25, item 6): by the server's
// refusal code, what to do, always through the contact page.
import { describe, expect, it } from 'vitest';
import { renewalNote } from '../../../../src/islands/dashboard/MySoftware.tsx';

describe('renewalNote', () => {
  it('says what to do for each refusal, naming the contact page', () => {
    expect(renewalNote('MAINTENANCE_EXPIRED')).toBe('To get it, renew your maintenance: write to us on the contact page and we will extend it.');
    expect(renewalNote('ENTITLEMENTS_MISSING')).toBe('It needs a license that includes more: write to us on the contact page to upgrade yours.');
    expect(renewalNote('NO_LICENSE')).toBe('To download it again, renew your license: write to us on the contact page.');
    for (const code of ['MAINTENANCE_EXPIRED', 'ENTITLEMENTS_MISSING', 'NO_LICENSE']) expect(renewalNote(code)).toContain('the contact page');
  });
});
