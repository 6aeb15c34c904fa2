// License types: 'trial' and 'perpetual' are the named types the product relies on (docs/product/data-model.md).
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { licenseTypes, type LicenseType } from '../../db/schema.ts';

export const REQUIRED_LICENSE_TYPES = ['trial', 'perpetual'] as const;

export function ensureLicenseTypes(db: Db): void {
  for (const name of REQUIRED_LICENSE_TYPES) db.insert(licenseTypes).values({ name }).onConflictDoNothing().run();
}

export function listLicenseTypes(db: Db): LicenseType[] {
  return db.select().from(licenseTypes).orderBy(asc(licenseTypes.id)).all();
}

export function getLicenseTypeById(db: Db, id: number): LicenseType | undefined {
  return db.select().from(licenseTypes).where(eq(licenseTypes.id, id)).get();
}
