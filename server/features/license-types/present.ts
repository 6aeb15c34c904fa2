// A license type as the admin's answers carry it (docs/admin-api.md#license-types): entitlements as a list,
// flags as 0/1, and how many licenses use it (a type in use cannot be deleted).
import type { LicenseType } from '../../db/schema.ts';
import { parseEntitlements } from './entitlement-codes.ts';
import { REQUIRED_LICENSE_TYPES } from './ensure-types.ts';

export interface LicenseTypeView {
  id: number;
  name: string;
  entitlements: string[];
  max_machines: number;
  duration_days: number;
  maintenance_days: number;
  floating: 0 | 1;
  lease_minutes: number;
  /** 1 for trial and perpetual: the product relies on their names, so they are never renamed or deleted. */
  built_in: 0 | 1;
  /** Licenses of this type. */
  licenses: number;
  created_at: string;
  updated_at: string;
}

export const isBuiltInType = (name: string) => (REQUIRED_LICENSE_TYPES as readonly string[]).includes(name);

export function presentLicenseType(type: LicenseType, licenses: number): LicenseTypeView {
  return {
    id: type.id,
    name: type.name,
    entitlements: parseEntitlements(type.entitlements),
    max_machines: type.max_machines,
    duration_days: type.duration_days,
    maintenance_days: type.maintenance_days,
    floating: type.floating === 1 ? 1 : 0,
    lease_minutes: type.lease_minutes,
    built_in: isBuiltInType(type.name) ? 1 : 0,
    licenses,
    created_at: type.created_at,
    updated_at: type.updated_at,
  };
}
