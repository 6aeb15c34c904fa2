// The name a download is saved under: our own `filename` header (release files), else the standard
// Content-Disposition (the machine-bound license file, `<key>.lic`), else the caller's fallback.
import { describe, expect, it } from 'vitest';
import { downloadName } from '../../../../src/lib/api/transfer.ts';

const headers = (values: Record<string, string>) => new Headers(values);

describe('downloadName', () => {
  it('prefers the filename header, decoded', () => {
    expect(downloadName(headers({ filename: 'Setup%20v2.exe', 'Content-Disposition': 'attachment; filename="x.bin"' }), 'f')).toBe('Setup v2.exe');
  });

  it("reads Content-Disposition's quoted filename", () => {
    expect(downloadName(headers({ 'Content-Disposition': 'attachment; filename="DCTL-AAAAA-BBBBB.lic"' }), 'license.lic')).toBe('DCTL-AAAAA-BBBBB.lic');
  });

  it('falls back without either', () => {
    expect(downloadName(headers({}), 'license-3.lic')).toBe('license-3.lic');
  });
});
