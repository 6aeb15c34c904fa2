// What a license is for the software and in words for people (issue 12, items 5 and 6): the same four codes
// the activation API answers (docs/licensing.md), and the text the dashboard and the admin panel show.
// Pure: the stored license and the clock in, the status out.
import type { LicenseWithType } from './queries.ts';
import { DAY_MS } from './license-dates.ts';
import { licenseTypeLabel } from '../../../common/license-type-label.ts';

export type LicenseStatusCode = 'VALID' | 'NOT_ACTIVE' | 'EXPIRED' | 'SUSPENDED';

export interface LicenseStatus {
  code: LicenseStatusCode;
  /** "Trial – expires in 12 days", "Perpetual", "Suspended", "Expired", "Not active". */
  text: string;
}

type StatusInput = Pick<LicenseWithType, 'active' | 'suspended' | 'expire_date'> & { license_type: { name: string } };

/**
 * The code, checked in this order: a suspension is the admin's explicit word and wins over everything; an
 * inactive license has no dates to expire by; then the expiry (the instant itself already counts as expired).
 */
export function licenseStatusCode(license: Omit<StatusInput, 'license_type'>, now: number): LicenseStatusCode {
  if (license.suspended === 1) return 'SUSPENDED';
  if (license.active !== 1) return 'NOT_ACTIVE';
  if (license.expire_date !== null && Date.parse(license.expire_date) <= now) return 'EXPIRED';
  return 'VALID';
}

const TEXT_OF: Record<Exclude<LicenseStatusCode, 'VALID'>, string> = {
  SUSPENDED: 'Suspended',
  NOT_ACTIVE: 'Not active',
  EXPIRED: 'Expired',
};

/** Whole days left, rounded up: 11 days and 2 hours left read "expires in 12 days", the last hours "in 1 day". */
function daysLeft(expireDate: string, now: number): number {
  return Math.max(1, Math.ceil((Date.parse(expireDate) - now) / DAY_MS));
}

export function licenseStatus(license: StatusInput, now: number): LicenseStatus {
  const code = licenseStatusCode(license, now);
  if (code !== 'VALID') return { code, text: TEXT_OF[code] };
  const type = licenseTypeLabel(license.license_type.name);
  if (license.expire_date === null) return { code, text: type };
  const days = daysLeft(license.expire_date, now);
  return { code, text: `${type} – expires in ${days} ${days === 1 ? 'day' : 'days'}` };
}
