// The license form's hint under the expiry days: extending an active license is raising its days, and the
// hint shows the expiry they give (counted from the activation, as server/features/licensing/license-dates.ts does).
import { describe, expect, it } from 'vitest';
import { expiryHint } from '../../../../src/islands/admin-console/dates.ts';

describe('the expiry hint', () => {
  it('says where the count starts for a new or inactive license', () => {
    expect(expiryHint(true, null, '30')).toBe('Counted from the grant; a trial is active at once.');
    expect(expiryHint(false, null, '30')).toBe('Counted from activation.');
  });

  it('shows the expiry the days give an active license, from its activation', () => {
    expect(expiryHint(true, '2026-11-01T12:00:00.000Z', '45')).toMatch(
      /^Counted from the activation on 1 Nov 2026: expires 16 Dec 2026, \d\d:\d\d\. Raise the days to extend the license\.$/,
    );
  });

  it('leaves the date out while the days are not a whole number', () => {
    expect(expiryHint(true, '2026-11-01T12:00:00.000Z', '4x')).toBe('Counted from the activation on 1 Nov 2026. Raise the days to extend the license.');
  });
});
