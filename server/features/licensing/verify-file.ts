// Checking a license file as the company's software does (docs/licensing.md): with the published keys
// alone, through jose like any JOSE library. Used by `npm run license-verify` and the tests; the answer
// says why a file is refused in words a support engineer can act on.
import { createLocalJWKSet, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import type { LicenseClaims, MachineClaims } from './license-file.ts';
import type { PublicJwk } from './signing-keys.ts';

export type LicenseFileRefusal = 'MALFORMED' | 'UNKNOWN_KID' | 'BAD_SIGNATURE' | 'EXPIRED' | 'NOT_YET_VALID' | 'WRONG_ISSUER' | 'WRONG_MACHINE';

export interface VerifiedLicenseFile {
  ok: true;
  kid: string;
  claims: JWTPayload & { license: LicenseClaims; machine?: MachineClaims };
}

export interface RefusedLicenseFile {
  ok: false;
  reason: LicenseFileRefusal;
  message: string;
}

export interface VerifyOptions {
  now?: Date;
  /** The machine the file must be bound to. */
  fingerprint?: string;
  /** The site that must have issued it (the `iss` claim). */
  issuer?: string;
}

const refuse = (reason: LicenseFileRefusal, message: string): RefusedLicenseFile => ({ ok: false, reason, message });

export async function verifyLicenseFile(
  token: string,
  jwks: { keys: PublicJwk[] },
  options: VerifyOptions = {},
): Promise<VerifiedLicenseFile | RefusedLicenseFile> {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token.trim()).kid;
  } catch {
    return refuse('MALFORMED', 'not a license file (a JWS in compact form: header.payload.signature)');
  }
  if (!kid || !jwks.keys.some((key) => key.kid === kid)) return refuse('UNKNOWN_KID', `signed with a key that is not published (kid ${kid ?? 'missing'})`);
  try {
    const { payload } = await jwtVerify(token.trim(), createLocalJWKSet(jwks), {
      algorithms: ['EdDSA'],
      currentDate: options.now,
      issuer: options.issuer,
      requiredClaims: ['sub', 'iat'],
    });
    const claims = payload as VerifiedLicenseFile['claims'];
    if (typeof claims.license !== 'object' || claims.license === null) return refuse('MALFORMED', 'the file carries no license');
    if (options.fingerprint !== undefined && claims.machine?.fingerprint !== options.fingerprint) {
      return refuse('WRONG_MACHINE', claims.machine ? `bound to machine ${claims.machine.fingerprint}, not ${options.fingerprint}` : 'not bound to a machine');
    }
    return { ok: true, kid, claims };
  } catch (error) {
    if (error instanceof errors.JWTExpired) return refuse('EXPIRED', `expired at ${new Date(Number(error.payload.exp) * 1000).toISOString()}`);
    if (error instanceof errors.JWTClaimValidationFailed) {
      if (error.claim === 'iss') return refuse('WRONG_ISSUER', `issued by ${String(error.payload.iss)}, not ${options.issuer}`);
      if (error.claim === 'iat' || error.claim === 'nbf') return refuse('NOT_YET_VALID', 'issued in the future: check the clock');
      return refuse('MALFORMED', error.message);
    }
    if (error instanceof errors.JWSSignatureVerificationFailed)
      return refuse('BAD_SIGNATURE', 'the signature does not match: the file was changed or not signed by this site');
    if (error instanceof errors.JWKSNoMatchingKey) return refuse('UNKNOWN_KID', `signed with a key that is not published (kid ${kid})`);
    return refuse('MALFORMED', error instanceof Error ? error.message : String(error));
  }
}
