// Checking a license file as the company's software does (docs/licensing.md): with the published keys
// alone, through jose like any JOSE library. Used by `npm run license-verify` and the tests; the answer
// says why a file is refused in words a support engineer can act on. It checks `typ` exactly as the software
// example of docs/licensing.md does, and takes the compact form strictly (issue 29, item 4): a token signed
// by our key for another purpose is not a license file, and a padded or space-wrapped signature, which a
// lenient base64 decoder reads as the same bytes, is not what the site issues.
import { createLocalJWKSet, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import { LICENSE_FILE_TYPE, type LicenseClaims, type MachineClaims } from './license-file.ts';
import type { PublicJwk } from '../../signing/signing-keys.ts';

export type LicenseFileRefusal = 'MALFORMED' | 'WRONG_TYPE' | 'UNKNOWN_KID' | 'BAD_SIGNATURE' | 'EXPIRED' | 'NOT_YET_VALID' | 'WRONG_ISSUER' | 'WRONG_MACHINE';

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

/** Three unpadded base64url parts and nothing else: no '=', no whitespace anywhere (RFC 7515, section 2). */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

const refuse = (reason: LicenseFileRefusal, message: string): RefusedLicenseFile => ({ ok: false, reason, message });

export async function verifyLicenseFile(
  token: string,
  jwks: { keys: PublicJwk[] },
  options: VerifyOptions = {},
): Promise<VerifiedLicenseFile | RefusedLicenseFile> {
  const malformed = refuse('MALFORMED', 'not a license file (a JWS in compact form: header.payload.signature, unpadded base64url)');
  if (!COMPACT_JWS.test(token)) return malformed;
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return malformed;
  }
  if (!kid || !jwks.keys.some((key) => key.kid === kid)) return refuse('UNKNOWN_KID', `signed with a key that is not published (kid ${kid ?? 'missing'})`);
  try {
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
      algorithms: ['EdDSA'],
      typ: LICENSE_FILE_TYPE,
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
      if (error.claim === 'typ') return refuse('WRONG_TYPE', `typ is ${String(decodeProtectedHeader(token).typ ?? 'missing')}, not ${LICENSE_FILE_TYPE}`);
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
