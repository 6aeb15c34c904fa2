// The admin's license History in words: actions, change details and actors as the server records them.
import { describe, expect, it } from 'vitest';
import { actionLabel, actorText, detailText } from '../../../../src/islands/admin-console/license-events.ts';

describe('license events in words', () => {
  it('names known actions and spaces unknown ones', () => {
    expect(actionLabel('machine_deactivated')).toBe('Machine deactivated');
    expect(actionLabel('extended')).toBe('Extended');
    expect(actionLabel('key_rotated')).toBe('Key rotated');
  });

  it('shows changes as from → to, the changes of an update included', () => {
    expect(detailText({ expire: { from: 14, to: 45 }, expire_date: { from: null, to: '2027-01-01' } })).toBe('expire: 14 → 45; expire_date: none → 2027-01-01');
    expect(detailText({ changes: { max_machines: { from: 1, to: 3 } } })).toBe('max_machines: 1 → 3');
  });

  it('shows a machine without its internal id, and nothing for an empty detail', () => {
    expect(detailText({ machine_id: 7, fingerprint: 'fp-1', name: 'Build Box', platform: null })).toBe('fingerprint: fp-1; name: Build Box; platform: none');
    expect(detailText({})).toBe('');
  });

  it('names the actor, or the kind of actor without a user', () => {
    expect(actorText({ actor_kind: 'admin', actor_name: 'Ann' })).toBe('Ann (admin)');
    expect(actorText({ actor_kind: 'software', actor_name: null })).toBe('the software');
    expect(actorText({ actor_kind: 'system', actor_name: null })).toBe('system');
  });
});
