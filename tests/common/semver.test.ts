// Release versions and their order (common/semver.ts; issue 25): the order of semver.org 2.0, §11.
import { describe, expect, it } from 'vitest';
import { compareSemver, isSemver, parseSemver } from '../../common/semver.ts';

describe('parseSemver', () => {
  it('accepts MAJOR.MINOR.PATCH with an optional pre-release', () => {
    expect(parseSemver('1.2.3')).toEqual({ major: 1, minor: 2, patch: 3, prerelease: [] });
    expect(parseSemver('10.0.0-beta.2')).toEqual({ major: 10, minor: 0, patch: 0, prerelease: ['beta', '2'] });
    expect(isSemver('0.0.0-0')).toBe(true);
  });

  it.each(['1.2', '1.2.3.4', 'v1.2.3', '01.2.3', '1.2.3-', '1.2.3-01', '1.2.3+build', ' 1.2.3', '1.2.3-beta..1', '99999999999999999999.0.0', '', '1.2.3-ü'])(
    'refuses %j',
    (text) => expect(parseSemver(text)).toBeNull(),
  );
});

describe('compareSemver', () => {
  // semver.org's own example chain, then numbers compared as numbers.
  const ascending = [
    '1.0.0-alpha',
    '1.0.0-alpha.1',
    '1.0.0-alpha.beta',
    '1.0.0-beta',
    '1.0.0-beta.2',
    '1.0.0-beta.11',
    '1.0.0-rc.1',
    '1.0.0',
    '1.0.1',
    '1.2.0',
    '1.10.0',
    '2.0.0-0',
    '2.0.0',
    '10.0.0',
  ];

  it('orders every pair as the spec does', () => {
    for (let i = 0; i < ascending.length; i++) {
      for (let j = 0; j < ascending.length; j++) {
        const order = compareSemver(ascending[i]!, ascending[j]!);
        expect(Math.sign(order), `${ascending[i]} vs ${ascending[j]}`).toBe(Math.sign(i - j));
      }
    }
  });

  it('sorts a shuffled list back into order', () => {
    const shuffled = [...ascending].reverse();
    expect(shuffled.sort(compareSemver)).toEqual(ascending);
  });

  it('throws for text that is not a version, every time it is asked', () => {
    expect(() => compareSemver('1.0', '1.0.0')).toThrow(/not a version/);
    expect(() => compareSemver('1.0.0', '1.0')).toThrow(/not a version/);
  });

  it('keeps ordering right past the versions it remembers parsed (clients report any version)', () => {
    const reported = Array.from({ length: 2500 }, (_, i) => `${Math.floor(i / 100)}.${i % 100}.0`);
    for (let i = 1; i < reported.length; i++) expect(compareSemver(reported[i]!, reported[i - 1]!), reported[i]).toBe(1);
    expect([...ascending].reverse().sort(compareSemver)).toEqual(ascending);
  });
});
