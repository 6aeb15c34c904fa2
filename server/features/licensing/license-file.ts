// Signed license files (docs/licensing.md): a JWS in compact form, alg EdDSA (Ed25519) with the signing
// key's kid in the header, verifiable by any JOSE library with the published keys alone. A file bound to a
// machine names it and expires with its lease, so a machine that stops checking in loses the license.
//
// Signed with node:crypto rather than jose's SignJWT: jose signs through WebCrypto, an asynchronous job per
// signature, and that cost five times the signature itself (decision 0057); every activation and every
// floating seat's heartbeat signs one. The compact form is three base64url parts (RFC 7515, section 7.1);
// files are still read with jose (verify-file.ts), and the tests verify them with jose alone.
import { sign, type KeyObject } from 'node:crypto';
import type { Keyring } from '../../signing/signing-keys.ts';

export const LICENSE_FILE_TYPE = 'dctl-license+jwt';

export interface LicenseClaims {
  id: number;
  key: string;
  type: string;
  user_name: string;
  company_name: string | null;
  email: string;
  max_machines: number;
  /** ISO date-time, or null for a license that does not expire. */
  expire_date: string | null;
  /** The effective entitlement codes, sorted (server/features/licensing/license-terms.ts). */
  entitlements: string[];
  /** ISO date-time until which updates are included, or null for no limit. */
  maintenance_until: string | null;
}

export interface MachineClaims {
  fingerprint: string;
  name: string | null;
}

export interface LicenseFileInput {
  issuer: string;
  license: LicenseClaims;
  /** With a machine, `leaseExpiresAt` is required: the file expires no later. */
  machine?: MachineClaims & { leaseExpiresAt: Date };
  now: Date;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** base64url of the JSON of `value`, as a JWS part. */
const jsonPart = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A compact JWS of `claims` under `header` (whose `alg` is EdDSA), signed with an Ed25519 key. Also how the
 * bench's bare handler signs (bench/lib/bare-api-server.ts), so the two compare the same signing.
 */
export function signCompactEdDsa(header: { alg: 'EdDSA' } & Record<string, unknown>, claims: Record<string, unknown>, privateKey: KeyObject): string {
  const signingInput = `${jsonPart(header)}.${jsonPart(claims)}`;
  // Ed25519 signs the message itself: no digest is named (RFC 8037).
  return `${signingInput}.${sign(null, Buffer.from(signingInput), privateKey).toString('base64url')}`;
}

export async function signLicenseFile(keyring: Keyring, input: LicenseFileInput): Promise<string> {
  const { license, machine, now } = input;
  const claims: Record<string, unknown> = { license };
  if (machine) claims.machine = { fingerprint: machine.fingerprint, name: machine.name };
  claims.iss = input.issuer;
  claims.sub = String(license.id);
  claims.iat = seconds(now);
  // A file is not valid before it was issued: a machine whose clock runs far behind cannot use it early.
  claims.nbf = seconds(now);
  const expiries = [license.expire_date ? new Date(license.expire_date) : null, machine?.leaseExpiresAt ?? null].filter((date): date is Date => date !== null);
  if (expiries.length > 0) claims.exp = Math.min(...expiries.map(seconds));
  return signCompactEdDsa({ alg: 'EdDSA', kid: keyring.current.kid, typ: LICENSE_FILE_TYPE }, claims, keyring.current.privateKey);
}
