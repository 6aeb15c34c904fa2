// The license date rules (server/features/licensing/license-dates.ts): trial and perpetual, activation and
// re-activation, and day arithmetic across month ends, year ends and leap days.
import { describe, expect, it } from 'vitest';
import { addDays, licenseKind, resolveLicenseDates } from '../../../../server/features/licensing/license-dates.ts';

const at = (iso: string) => Date.parse(iso);

describe('addDays', () => {
  it.each([
    ['2026-01-31T10:00:00.000Z', 1, '2026-02-01T10:00:00.000Z'],
    ['2026-04-30T23:59:59.999Z', 1, '2026-05-01T23:59:59.999Z'],
    ['2026-12-31T12:00:00.000Z', 1, '2027-01-01T12:00:00.000Z'],
    ['2026-12-15T00:00:00.000Z', 30, '2027-01-14T00:00:00.000Z'],
    ['2024-02-28T08:00:00.000Z', 1, '2024-02-29T08:00:00.000Z'], // leap year
    ['2024-02-28T08:00:00.000Z', 2, '2024-03-01T08:00:00.000Z'],
    ['2023-02-28T08:00:00.000Z', 1, '2023-03-01T08:00:00.000Z'], // not a leap year
    ['2100-02-28T08:00:00.000Z', 1, '2100-03-01T08:00:00.000Z'], // century, not a leap year
    ['2000-02-28T08:00:00.000Z', 1, '2000-02-29T08:00:00.000Z'], // every 400 years, a leap year
    ['2024-01-01T00:00:00.000Z', 366, '2025-01-01T00:00:00.000Z'],
    ['2026-03-28T12:00:00.000Z', 2, '2026-03-30T12:00:00.000Z'], // across a European DST change: UTC has none
    ['2026-05-05T05:05:05.000Z', 0, '2026-05-05T05:05:05.000Z'],
  ])('%s + %i days = %s', (start, days, expected) => {
    expect(addDays(start, days)).toBe(expected);
  });

  it('refuses a value that is no date', () => {
    expect(() => addDays('soon', 1)).toThrow(RangeError);
  });
});

describe('licenseKind', () => {
  it('names trial and perpetual whatever their case, anything else is other', () => {
    expect(licenseKind('trial')).toBe('trial');
    expect(licenseKind(' Perpetual ')).toBe('perpetual');
    expect(licenseKind('subscription')).toBe('other');
  });
});

describe('resolveLicenseDates', () => {
  const now = at('2024-02-20T09:30:00.000Z');

  it('activates a new trial at once, whatever Active says, and computes its expiry', () => {
    for (const active of [undefined, false, true]) {
      const result = resolveLicenseDates({ kind: 'trial', active, expireDays: 30, previous: null, now });
      expect(result).toEqual({
        activatedNow: true,
        // 2024 is a leap year: 20 Feb + 30 days = 21 Mar.
        dates: { active: 1, expire: 30, activated_at: '2024-02-20T09:30:00.000Z', expire_date: '2024-03-21T09:30:00.000Z' },
      });
    }
  });

  it('keeps a trial’s activation when its days change, so the expiry moves from the original start', () => {
    const previous = { active: 1, activated_at: '2024-02-01T00:00:00.000Z' } as const;
    const result = resolveLicenseDates({ kind: 'trial', active: undefined, expireDays: 60, previous, now });
    expect(result.activatedNow).toBe(false);
    expect(result.dates).toEqual({ active: 1, expire: 60, activated_at: '2024-02-01T00:00:00.000Z', expire_date: '2024-04-01T00:00:00.000Z' });
  });

  it('gives a perpetual license no expiry and stores 0 days whatever was sent', () => {
    const result = resolveLicenseDates({ kind: 'perpetual', active: true, expireDays: 365, previous: null, now });
    expect(result).toEqual({ activatedNow: true, dates: { active: 1, expire: 0, activated_at: '2024-02-20T09:30:00.000Z', expire_date: null } });
  });

  it('stores an inactive perpetual license without dates and does not count it as a grant', () => {
    for (const active of [undefined, false]) {
      const result = resolveLicenseDates({ kind: 'perpetual', active, expireDays: 0, previous: null, now });
      expect(result).toEqual({ activatedNow: false, dates: { active: 0, expire: 0, activated_at: null, expire_date: null } });
    }
  });

  it('activates a stored inactive license from now (a grant), and deactivating clears its dates', () => {
    const activated = resolveLicenseDates({ kind: 'perpetual', active: true, expireDays: 0, previous: { active: 0, activated_at: null }, now });
    expect(activated.activatedNow).toBe(true);
    expect(activated.dates.activated_at).toBe('2024-02-20T09:30:00.000Z');

    const deactivated = resolveLicenseDates({
      kind: 'perpetual',
      active: false,
      expireDays: 0,
      previous: { active: 1, activated_at: '2024-01-01T00:00:00.000Z' },
      now,
    });
    expect(deactivated).toEqual({ activatedNow: false, dates: { active: 0, expire: 0, activated_at: null, expire_date: null } });
  });

  it('keeps an active license active when Active is not sent, without a second grant', () => {
    const result = resolveLicenseDates({
      kind: 'perpetual',
      active: undefined,
      expireDays: 0,
      previous: { active: 1, activated_at: '2023-12-31T23:00:00.000Z' },
      now,
    });
    expect(result).toEqual({ activatedNow: false, dates: { active: 1, expire: 0, activated_at: '2023-12-31T23:00:00.000Z', expire_date: null } });
  });

  it('turns a perpetual license into a trial: active from its original activation, now with an expiry', () => {
    const result = resolveLicenseDates({
      kind: 'trial',
      active: false,
      expireDays: 14,
      previous: { active: 1, activated_at: '2025-12-25T00:00:00.000Z' },
      now,
    });
    expect(result.dates).toEqual({ active: 1, expire: 14, activated_at: '2025-12-25T00:00:00.000Z', expire_date: '2026-01-08T00:00:00.000Z' });
  });

  it('treats other types like perpetual for Active and like a trial for expiry', () => {
    expect(resolveLicenseDates({ kind: 'other', active: false, expireDays: 10, previous: null, now }).dates).toEqual({
      active: 0,
      expire: 10,
      activated_at: null,
      expire_date: null,
    });
    expect(resolveLicenseDates({ kind: 'other', active: true, expireDays: 10, previous: null, now }).dates.expire_date).toBe('2024-03-01T09:30:00.000Z');
  });
});
