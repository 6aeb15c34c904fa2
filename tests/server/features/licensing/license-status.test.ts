// The status of a license in codes and words (issue 12, items 5 and 6), and which admin changes become
// which license events: pure functions, on fixed dates.
import { describe, expect, it } from 'vitest';
import { licenseStatus } from '../../../../server/features/licensing/license-status.ts';
import { describeLicenseChange, type LicenseFacts } from '../../../../server/features/licensing/events.ts';

const NOW = Date.UTC(2026, 0, 1);
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(ms).toISOString();

const trial = (overrides: Partial<Parameters<typeof licenseStatus>[0]> = {}) => ({
  active: 1,
  suspended: 0,
  expire_date: at(NOW + 12 * DAY),
  license_type: { name: 'trial' },
  ...overrides,
});

describe('licenseStatus', () => {
  it('counts whole days left, rounded up, and says "1 day" in the last one', () => {
    expect(licenseStatus(trial(), NOW)).toEqual({ code: 'VALID', text: 'Trial – expires in 12 days' });
    expect(licenseStatus(trial({ expire_date: at(NOW + 11 * DAY + 2 * HOUR) }), NOW).text).toBe('Trial – expires in 12 days');
    expect(licenseStatus(trial({ expire_date: at(NOW + HOUR) }), NOW).text).toBe('Trial – expires in 1 day');
  });

  it('is expired from the expiry instant on', () => {
    expect(licenseStatus(trial({ expire_date: at(NOW) }), NOW)).toEqual({ code: 'EXPIRED', text: 'Expired' });
    expect(licenseStatus(trial({ expire_date: at(NOW + 1) }), NOW).code).toBe('VALID');
  });

  it('puts a suspension first, then inactivity, then the expiry', () => {
    expect(licenseStatus(trial({ suspended: 1, active: 0, expire_date: at(NOW - DAY) }), NOW)).toEqual({ code: 'SUSPENDED', text: 'Suspended' });
    expect(licenseStatus(trial({ active: 0, expire_date: at(NOW - DAY) }), NOW)).toEqual({ code: 'NOT_ACTIVE', text: 'Not active' });
  });

  it('names a license without expiry by its type', () => {
    expect(licenseStatus(trial({ expire_date: null, license_type: { name: 'perpetual' } }), NOW)).toEqual({ code: 'VALID', text: 'Perpetual' });
    expect(licenseStatus(trial({ license_type: { name: 'site' }, expire_date: at(NOW + 2 * DAY) }), NOW).text).toBe('Site – expires in 2 days');
  });
});

describe('describeLicenseChange', () => {
  const facts: LicenseFacts = {
    type: 'trial',
    active: 1,
    expire: 30,
    activated_at: at(NOW),
    expire_date: at(NOW + 30 * DAY),
    max_machines: 1,
    suspended: 0,
    entitlements: [],
    maintenance_until: null,
  };

  it('says created with the facts of a new license, and nothing when nothing changed', () => {
    expect(describeLicenseChange(null, facts)).toEqual([{ action: 'created', detail: facts }]);
    expect(describeLicenseChange(facts, { ...facts })).toEqual([]);
  });

  it('separates suspension and extension from other changes', () => {
    const after = { ...facts, suspended: 1, expire: 40, expire_date: at(NOW + 40 * DAY), max_machines: 2 };
    expect(describeLicenseChange(facts, after)).toEqual([
      { action: 'suspended', detail: {} },
      { action: 'extended', detail: { expire: { from: 30, to: 40 }, expire_date: { from: facts.expire_date, to: after.expire_date } } },
      { action: 'updated', detail: { changes: { max_machines: { from: 1, to: 2 } } } },
    ]);
    expect(describeLicenseChange(after, { ...after, suspended: 0 })).toEqual([{ action: 'unsuspended', detail: {} }]);
  });

  it('records a shortened expiry and a deactivation as updates', () => {
    const after = { ...facts, active: 0, activated_at: null, expire_date: null };
    expect(describeLicenseChange(facts, after)).toEqual([
      {
        action: 'updated',
        detail: {
          changes: { active: { from: 1, to: 0 }, activated_at: { from: facts.activated_at, to: null }, expire_date: { from: facts.expire_date, to: null } },
        },
      },
    ]);
  });
});
