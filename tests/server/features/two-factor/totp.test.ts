// RFC 6238 appendix B's test vectors (SHA-1, seed "12345678901234567890", 8 digits) through the same library and
// settings the server uses, and the policy around them: 6-digit codes are the vectors' last six digits, one
// step of drift is accepted either way, two are not.
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { matchTotpStep, totpCode, totpStep } from '../../../../server/features/two-factor/totp.ts';

const SEED = Secret.fromLatin1('12345678901234567890');
const VECTORS: Array<[seconds: number, code: string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238, SHA-1)', () => {
  it.each(VECTORS)('at T=%i the 8-digit code is %s', (seconds, code) => {
    const totp = new TOTP({ secret: SEED, algorithm: 'SHA1', digits: 8, period: 30 });
    expect(totp.generate({ timestamp: seconds * 1000 })).toBe(code);
  });

  it.each(VECTORS)('at T=%i the server’s 6-digit code is the last six digits of %s', (seconds, code) => {
    expect(totpCode(SEED.base32, totpStep(seconds * 1000))).toBe(code.slice(-6));
    expect(matchTotpStep(SEED.base32, code.slice(-6), seconds * 1000)).toBe(totpStep(seconds * 1000));
  });

  it('accepts one step of drift either way and refuses two', () => {
    const now = 1234567890 * 1000;
    const step = totpStep(now);
    expect(matchTotpStep(SEED.base32, totpCode(SEED.base32, step - 1), now)).toBe(step - 1);
    expect(matchTotpStep(SEED.base32, totpCode(SEED.base32, step + 1), now)).toBe(step + 1);
    expect(matchTotpStep(SEED.base32, totpCode(SEED.base32, step - 2), now)).toBeNull();
    expect(matchTotpStep(SEED.base32, totpCode(SEED.base32, step + 2), now)).toBeNull();
  });

  it('refuses anything but six digits', () => {
    const now = 59_000;
    const code = totpCode(SEED.base32, totpStep(now));
    expect(matchTotpStep(SEED.base32, ` ${code}`, now)).toBeNull();
    expect(matchTotpStep(SEED.base32, '94287082', now)).toBeNull();
  });
});
