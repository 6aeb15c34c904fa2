// What a license gives (issue 24, item 2; docs/licensing.md#entitlements-and-maintenance): its type's
// entitlements plus its own, and the end of its maintenance window. The one place this is computed: the
// license objects of the browser's answers, the activation API's answers and the signed file's claims all
// read it here, and so will the release and update feeds (through the feature's face, index.ts).
import type { License } from '../../db/schema.ts';
import { DAY_MS } from './license-dates.ts';
import { normaliseEntitlements, parseEntitlements } from '../license-types/index.ts';

export interface LicenseTerms {
  /** The type's name. */
  type: string;
  /** The effective entitlements: the type's and the license's own, sorted. */
  entitlements: string[];
  /** ISO time until which updates are included, or null for no limit. */
  maintenance_until: string | null;
}

export interface TypeTerms {
  name: string;
  /** The type's stored JSON array. */
  entitlements: string;
}

/** A license's effective entitlements and maintenance window: the one function that says what it gives. */
export function licenseTerms(license: Pick<License, 'extra_entitlements' | 'maintenance_until'>, type: TypeTerms): LicenseTerms {
  return {
    type: type.name,
    entitlements: normaliseEntitlements([...parseEntitlements(type.entitlements), ...parseEntitlements(license.extra_entitlements)]),
    maintenance_until: license.maintenance_until,
  };
}

/** The codes asked for that the license lacks, sorted like every list of codes (none asked: none missing). */
export function missingEntitlements(terms: Pick<LicenseTerms, 'entitlements'>, asked: readonly string[] | undefined): string[] {
  if (!asked) return [];
  const held = new Set(terms.entitlements);
  return normaliseEntitlements(asked).filter((code) => !held.has(code));
}

/** Whether a release of `releasedAt` is within the maintenance window (for the release and update feeds). */
export function coveredByMaintenance(terms: Pick<LicenseTerms, 'maintenance_until'>, releasedAt: string): boolean {
  return terms.maintenance_until === null || Date.parse(releasedAt) <= Date.parse(terms.maintenance_until);
}

/** The default end of maintenance of a grant: `days` after it, or null (no limit) for 0. */
export function defaultMaintenanceUntil(grantedAt: string | null, days: number): string | null {
  if (days <= 0 || grantedAt === null) return null;
  return new Date(Date.parse(grantedAt) + days * DAY_MS).toISOString();
}
