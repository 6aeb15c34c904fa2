// Named queries of license types (docs/architecture.md#data; issue 24, item 1): the editions an admin
// manages. 'trial' and 'perpetual' are the named types the product relies on (docs/product/data-model.md).
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { licenses, licenseTypes, type LicenseType } from '../../db/schema.ts';

export type NewLicenseType = typeof licenseTypes.$inferInsert;

export function listLicenseTypes(db: Db): LicenseType[] {
  return db.select().from(licenseTypes).orderBy(asc(licenseTypes.id)).all();
}

export function getLicenseTypeById(db: Db, id: number): LicenseType | undefined {
  return db.select().from(licenseTypes).where(eq(licenseTypes.id, id)).get();
}

/** Names are unique whatever their case: "Pro" and "pro" would read as one edition to everyone. */
export function findLicenseTypeByName(db: Db, name: string): LicenseType | undefined {
  return db
    .select()
    .from(licenseTypes)
    .where(sql`lower(${licenseTypes.name}) = lower(${name})`)
    .get();
}

export function insertLicenseType(db: Db, type: NewLicenseType): LicenseType {
  return db.insert(licenseTypes).values(type).returning().get();
}

/** Inserts the type unless one of that name exists; answers whether it did. */
export function insertLicenseTypeIfMissing(db: Db, type: NewLicenseType): boolean {
  return db.insert(licenseTypes).values(type).onConflictDoNothing().run().changes > 0;
}

export function updateLicenseType(db: Db, id: number, fields: Partial<NewLicenseType>): LicenseType | undefined {
  return db.update(licenseTypes).set(fields).where(eq(licenseTypes.id, id)).returning().get();
}

export function updateLicenseTypeByName(db: Db, name: string, fields: Partial<NewLicenseType>): void {
  db.update(licenseTypes).set(fields).where(eq(licenseTypes.name, name)).run();
}

export function deleteLicenseType(db: Db, id: number): LicenseType | undefined {
  return db.delete(licenseTypes).where(eq(licenseTypes.id, id)).returning().get();
}

/** How many licenses are of this type: a type in use cannot be deleted. */
export function countLicensesOfType(db: Db, typeId: number): number {
  return (
    db
      .select({ count: sql<number>`count(*)` })
      .from(licenses)
      .where(eq(licenses.license_type_id, typeId))
      .get()?.count ?? 0
  );
}
