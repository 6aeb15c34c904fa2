// The release form's entitlement suggestions and the file delete question (issue 25): codes named by the
// license types that give them, and a question that names the file, its platform and the release.
import { describe, expect, it } from 'vitest';
import { knownEntitlements } from '../../../../src/islands/downloads/ReleaseGateFields.tsx';
import { fileDeleteConfirmation } from '../../../../src/islands/downloads/ReleaseFilesEditor.tsx';

describe('knownEntitlements', () => {
  it('lists each code once with every type that gives it, sorted by code', () => {
    expect(
      knownEntitlements([
        { name: 'Pro', entitlements: ['PRO_EXPORT', 'BETA'] },
        { name: 'trial', entitlements: [] },
        { name: 'Site', entitlements: ['PRO_EXPORT'] },
      ]),
    ).toEqual([
      { code: 'BETA', typeNames: ['Pro'] },
      { code: 'PRO_EXPORT', typeNames: ['Pro', 'Site'] },
    ]);
  });
});

describe('fileDeleteConfirmation', () => {
  it('names the file, its platform and the release, and warns that it is a hard delete', () => {
    expect(fileDeleteConfirmation({ title: 'Gauge 3.1' }, { name: 'gauge.dmg', platform: 'macos', arch: 'arm64' })).toBe(
      'Delete gauge.dmg (macOS ARM64) from "Gauge 3.1"? This operation will hard delete data from database!!!',
    );
  });
});
