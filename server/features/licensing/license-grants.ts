// What a license lets its holder download (issue 25; docs/updates.md): whether it is valid now, its effective
// entitlements and its maintenance window, in one small shape the release-access decision of the downloads
// feature reads. Built here, from the one status rule (license-status.ts) and the one terms rule
// (license-terms.ts), so the browser's downloads, "My software" and the update API judge a license alike.
import { normaliseLicenseKey } from '../../auth/license-keys.ts';
import type { Db } from '../../db/client.ts';
import { licenseStatusCode } from './license-status.ts';
import { licenseTerms } from './license-terms.ts';
import { findLicenseByKey, getLicenseForSoftware, getLicensesOfUser, type LicenseForSoftware, type LicenseWithType } from './queries.ts';

export interface LicenseGrant {
  license_id: number;
  /** The license's status is VALID now (active, not suspended, not expired). */
  valid: boolean;
  /** The effective entitlements, sorted. */
  entitlements: string[];
  /** ISO time until which updates are included, or null for no limit. */
  maintenance_until: string | null;
}

export function grantOfLicense(license: LicenseWithType, now: number): LicenseGrant {
  const terms = licenseTerms(license, license.license_type);
  return {
    license_id: license.id,
    valid: licenseStatusCode(license, now) === 'VALID',
    entitlements: terms.entitlements,
    maintenance_until: terms.maintenance_until,
  };
}

function grantOfSoftwareLicense(license: LicenseForSoftware, now: number): LicenseGrant {
  const terms = licenseTerms(license, { name: license.type_name, entitlements: license.type_entitlements });
  return {
    license_id: license.id,
    valid: licenseStatusCode(license, now) === 'VALID',
    entitlements: terms.entitlements,
    maintenance_until: terms.maintenance_until,
  };
}

/** The grants of a user's licenses, in the order of their licenses. */
export function grantsOfUser(db: Db, userId: number, now: number): LicenseGrant[] {
  return getLicensesOfUser(db, userId).map((license) => grantOfLicense(license, now));
}

/**
 * The grant of the license a key names (typed in any accepted spelling), or undefined when no license has
 * it; the lookup runs alike for every key, as the licensing API's does.
 */
export function grantOfKey(db: Db, key: string, now: number): LicenseGrant | undefined {
  const license = findLicenseByKey(db, normaliseLicenseKey(key) ?? key);
  return license ? grantOfSoftwareLicense(license, now) : undefined;
}

/** The grant of a license by id (a signed update link names the license it was made for), or undefined. */
export function grantOfLicenseId(db: Db, id: number, now: number): LicenseGrant | undefined {
  const license = getLicenseForSoftware(db, id);
  return license ? grantOfSoftwareLicense(license, now) : undefined;
}
