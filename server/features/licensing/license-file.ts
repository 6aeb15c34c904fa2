// Signed license files (docs/licensing.md): a JWS in compact form, alg EdDSA (Ed25519) with the signing
// key's kid in the header, verifiable by any JOSE library with the published keys alone. A file bound to a
// machine names it and expires with its lease, so a machine that stops checking in loses the license.
import { SignJWT } from 'jose';
import type { Keyring } from './signing-keys.ts';

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

export async function signLicenseFile(keyring: Keyring, input: LicenseFileInput): Promise<string> {
  const { license, machine, now } = input;
  const payload: Record<string, unknown> = { license };
  if (machine) payload.machine = { fingerprint: machine.fingerprint, name: machine.name };
  const expiries = [license.expire_date ? new Date(license.expire_date) : null, machine?.leaseExpiresAt ?? null].filter((date): date is Date => date !== null);
  const jwt = new SignJWT(payload)
    .setProtectedHeader({ alg: 'EdDSA', kid: keyring.current.kid, typ: LICENSE_FILE_TYPE })
    .setIssuer(input.issuer)
    .setSubject(String(license.id))
    .setIssuedAt(seconds(now))
    // A file is not valid before it was issued: a machine whose clock runs far behind cannot use it early.
    .setNotBefore(seconds(now));
  if (expiries.length > 0) jwt.setExpirationTime(Math.min(...expiries.map(seconds)));
  return jwt.sign(keyring.current.privateKey);
}
