// A license's history in words (issue 24, item 5): the one wording the owner's card, the admin's History and
// the change mail share (common/license-history.ts), for every event the server records.
import { describe, expect, it } from 'vitest';
import { historyTime, licenseEventActor, licenseEventText } from '../../common/license-history.ts';

const event = (action: string, detail: Record<string, unknown> = {}) => ({ action, detail });

describe('licenseEventText', () => {
  it('says each event as a sentence, dates in UTC', () => {
    expect(licenseEventText(event('created', { type: 'Pro', active: 1, max_machines: 3, expire_date: '2027-01-01T00:00:00.000Z' }))).toBe(
      'Granted: Pro, 3 machines, expires 2027-01-01',
    );
    expect(licenseEventText(event('created', { type: 'trial', active: 1, max_machines: 1, expire_date: '2026-01-31T00:00:00.000Z', auto_granted: true }))).toBe(
      'Trial granted on request: trial, 1 machine, expires 2026-01-31',
    );
    expect(licenseEventText(event('created', { type: 'perpetual', active: 0, max_machines: 3, expire_date: null }))).toBe(
      'Created, not active yet: perpetual, 3 machines',
    );
    expect(licenseEventText(event('extended', { expire_date: { from: '2026-01-31T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z' } }))).toBe(
      'Extended until 2026-03-02 (was 2026-01-31)',
    );
    expect(licenseEventText(event('suspended'))).toBe('Suspended: the software refuses it until it is lifted');
    expect(licenseEventText(event('unsuspended'))).toBe('Suspension lifted');
    expect(licenseEventText(event('machine_activated', { name: 'Lab PC', fingerprint: 'abc' }))).toBe('Lab PC activated');
    expect(licenseEventText(event('machine_deactivated', { name: null, fingerprint: '4c1f0b7e9a77aa11' }))).toBe('machine 4c1f0b7e9a77 deactivated');
    expect(licenseEventText(event('lease_ended', { name: 'Lab PC' }))).toBe('Lease of Lab PC ended');
    expect(licenseEventText(event('reminder_sent', { kind: 'expires_in_7_days' }))).toBe('Reminder sent: expires in 7 days');
    expect(licenseEventText(event('reminder_sent', { kind: 'expired' }))).toBe('Reminder sent: the license has expired');
  });

  it('says every change of an update, and never a raw key: value dump', () => {
    const text = licenseEventText(
      event('updated', {
        changes: {
          max_machines: { from: 3, to: 5 },
          entitlements: { from: ['A1'], to: ['B2'] },
          maintenance_until: { from: null, to: '2027-01-01T00:00:00.000Z' },
          active: { from: 0, to: 1 },
          type: { from: 'trial', to: 'Pro' },
        },
      }),
    );
    expect(text).toBe(
      'Machine limit changed from 3 to 5; Features added B2; removed A1; Updates included until 2027-01-01 (was no limit); Activated; Type changed from trial to Pro',
    );
    expect(text).not.toMatch(/\w+_\w+:/);
    expect(licenseEventText(event('something_new'))).toBe('Something new');
  });
});

describe('licenseEventActor and historyTime', () => {
  it('name the actor as the viewer may see it, and the time in UTC', () => {
    expect(licenseEventActor({ actor_kind: 'admin', actor_name: 'Boss' })).toBe('by Boss (admin)');
    expect(licenseEventActor({ actor_kind: 'admin' })).toBe('by an administrator');
    expect(licenseEventActor({ actor_kind: 'software', actor_name: null })).toBe('by the software');
    expect(licenseEventActor({ actor_kind: 'system' })).toBe('automatically');
    expect(historyTime('2026-03-01T14:05:09.000Z')).toBe('2026-03-01 14:05 UTC');
  });
});
