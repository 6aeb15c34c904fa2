// Time-based one-time passwords (RFC 6238) as authenticator apps make them: HMAC-SHA-1, 6 digits, 30-second
// steps (docs/product/accounts.md#two-factor-sign-in). The arithmetic is the otpauth library's
// (docs/decisions/0023-two-factor-sign-in.md); what is ours is the policy: one step of clock drift either
// way, and the step a code matched, so the caller can refuse it a second time.
import { Secret, TOTP, URI } from 'otpauth';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of the server's: a phone's clock a little off still works, an old code does not. */
export const TOTP_DRIFT_STEPS = 1;

function totp(secret: string, options: { issuer?: string; label?: string } = {}): TOTP {
  return new TOTP({ ...options, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS });
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommendation) in base32, as apps take it typed in. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// address a QR code carries: issuer and account name label the entry in the app. */
export function totpUri(secret: string, input: { issuer: string; account: string }): string {
  return URI.stringify(totp(secret, { issuer: input.issuer, label: input.account }));
}

/** The time step (counter) of a moment, in epoch milliseconds. */
export function totpStep(now: number): number {
  return Math.floor(now / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code of a step: for tests and for the browser test that plays the authenticator app. */
export function totpCode(secret: string, step: number): string {
  return totp(secret).generate({ timestamp: step * TOTP_PERIOD_SECONDS * 1000 });
}

/** The step `code` belongs to, within the allowed drift of `now`; null when it matches none. */
export function matchTotpStep(secret: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: now, window: TOTP_DRIFT_STEPS });
  return delta === null ? null : totpStep(now) + delta;
}
