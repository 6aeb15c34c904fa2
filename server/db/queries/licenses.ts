// Named queries for licenses (SPEC.md 3 'License'): clients read the type's name as `license_type.name`.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { licenseTypes, licenses, type License } from '../schema.ts';

export type LicenseWithType = License & { license_type: { name: string } };

export function getLicensesOfUser(db: Db, userId: number): LicenseWithType[] {
  return db
    .select({ license: licenses, typeName: licenseTypes.name })
    .from(licenses)
    .innerJoin(licenseTypes, eq(licenses.license_type_id, licenseTypes.id))
    .where(eq(licenses.user_id, userId))
    .orderBy(asc(licenses.id))
    .all()
    .map(({ license, typeName }) => ({ ...license, license_type: { name: typeName } }));
}

/** Whether the user holds a license marked active (the dashboard then hides the Request License button). */
export function hasActiveLicense(db: Db, userId: number): boolean {
  return (
    db
      .select({ id: licenses.id })
      .from(licenses)
      .where(and(eq(licenses.user_id, userId), eq(licenses.active, 1)))
      .limit(1)
      .get() !== undefined
  );
}
