// How a release reads (src/lib/release-markup.ts), issue 25's part: a release using none of the new
// fields keeps today's card, the others name their platforms, dates and gates in words.
import { describe, expect, it } from 'vitest';
import {
  displayedVersion,
  entitlementText,
  fileDownloadLabel,
  isGatedRelease,
  maintenanceText,
  platformLabel,
  releasedText,
  releaseName,
  usesReleaseFeatures,
} from '../../../src/lib/release-markup.ts';

const plain = { version: null, channel: 'stable', entitlement: null, files: [{ platform: 'any', arch: 'universal' }] } as const;

describe('usesReleaseFeatures', () => {
  it('is false for a release as it was before issue 25 (one file for any platform, or none)', () => {
    expect(usesReleaseFeatures(plain)).toBe(false);
    expect(usesReleaseFeatures({ ...plain, files: [] })).toBe(false);
  });

  it('is true as soon as one new field is used', () => {
    expect(usesReleaseFeatures({ ...plain, version: '3.1.0' })).toBe(true);
    expect(usesReleaseFeatures({ ...plain, channel: 'beta' })).toBe(true);
    expect(usesReleaseFeatures({ ...plain, entitlement: 'PRO' })).toBe(true);
    expect(usesReleaseFeatures({ ...plain, files: [{ platform: 'windows', arch: 'universal' }] })).toBe(true);
    expect(usesReleaseFeatures({ ...plain, files: [{ platform: 'any', arch: 'arm64' }] })).toBe(true);
    expect(usesReleaseFeatures({ ...plain, files: [...plain.files, { platform: 'any', arch: 'universal' }] })).toBe(true);
  });
});

describe('words', () => {
  it('names platforms with their architecture, universal ones without', () => {
    expect(platformLabel({ platform: 'windows', arch: 'x64' })).toBe('Windows x64');
    expect(platformLabel({ platform: 'linux', arch: 'arm64' })).toBe('Linux ARM64');
    expect(platformLabel({ platform: 'macos', arch: 'universal' })).toBe('macOS');
    expect(platformLabel({ platform: 'any', arch: 'universal' })).toBe('All platforms');
    expect(fileDownloadLabel('Gauge 3.1.0', { platform: 'macos', arch: 'arm64' })).toBe('Download Gauge 3.1.0 for macOS ARM64');
  });

  it('writes dates as "12 March 2027" (UTC)', () => {
    expect(maintenanceText('2027-03-12T00:00:00.000Z')).toBe('Maintenance until 12 March 2027');
    expect(maintenanceText('2027-03-12T23:30:00.000Z')).toBe('Maintenance until 12 March 2027');
    expect(maintenanceText(null)).toBe('Maintenance without end date');
    expect(releasedText('2026-11-02T09:00:00.000Z')).toBe('Released 2 November 2026');
  });

  it('says a gate by the license types that give the code, else by the code', () => {
    expect(entitlementText('PRO_EXPORT', ['Pro', 'Site'])).toBe('For licenses that include PRO_EXPORT (Pro, Site)');
    expect(entitlementText('LAB')).toBe('For licenses that include LAB');
    expect(isGatedRelease({ channel: 'beta', entitlement: null })).toBe(true);
    expect(isGatedRelease({ channel: 'stable', entitlement: 'PRO' })).toBe(true);
    expect(isGatedRelease({ channel: 'stable', entitlement: null })).toBe(false);
  });

  it('shows the release number, else the semantic version, and names a release once', () => {
    expect(displayedVersion({ release: '0', version: '3.1.0' })).toBe('3.1.0');
    expect(displayedVersion({ release: '2026 R1', version: '3.1.0' })).toBe('2026 R1');
    expect(displayedVersion({ release: '', version: null })).toBe('');
    expect(releaseName({ title: 'Gauge Studio', release: '', version: '3.1.0' })).toBe('Gauge Studio 3.1.0');
    expect(releaseName({ title: 'Gauge Studio 3.1.0', release: '', version: '3.1.0' })).toBe('Gauge Studio 3.1.0');
  });
});
