// Named queries for licenses (docs/product/data-model.md#license): clients read the type's name as `license_type.name`.
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { preparedFor } from '../prepared.ts';
import { licenseTypes, licenses, type License } from '../schema.ts';

export type LicenseWithType = License & { license_type: { name: string } };
export type NewLicense = typeof licenses.$inferInsert;

const licensesWithTypeQuery = (db: Db, where: SQL | undefined) =>
  db
    .select({ license: licenses, typeName: licenseTypes.name })
    .from(licenses)
    .innerJoin(licenseTypes, eq(licenses.license_type_id, licenseTypes.id))
    .where(where)
    .orderBy(asc(licenses.user_id), asc(licenses.id));

const withTypeName = (rows: { license: License; typeName: string }[]): LicenseWithType[] => rows.map(({ license, typeName }) => ({ ...license, license_type: { name: typeName } }));

function selectLicensesWithType(db: Db, where: SQL | undefined): LicenseWithType[] {
  return withTypeName(licensesWithTypeQuery(db, where).all());
}

// Every signed-in page load asks for the user's licenses (GET /api/user): prepared once.
const licensesOfUserStatement = (db: Db) => licensesWithTypeQuery(db, eq(licenses.user_id, sql.placeholder('userId'))).prepare();

export function getLicensesOfUser(db: Db, userId: number): LicenseWithType[] {
  return withTypeName(preparedFor(db, licensesOfUserStatement, licensesOfUserStatement).all({ userId }));
}

/** Every license, for the admin's GET /api/license/getAll: one query whatever the number of users. */
export function listAllLicenses(db: Db): LicenseWithType[] {
  return selectLicensesWithType(db, undefined);
}

/** The licenses of a page of users; the ids travel as one JSON parameter, so any page size fits. */
export function listLicensesOfUsers(db: Db, userIds: readonly number[]): LicenseWithType[] {
  if (userIds.length === 0) return [];
  return selectLicensesWithType(db, sql`${licenses.user_id} in (select value from json_each(${JSON.stringify(userIds)}))`);
}

export function getLicenseWithType(db: Db, id: number): LicenseWithType | undefined {
  return selectLicensesWithType(db, eq(licenses.id, id))[0];
}

export function insertLicense(db: Db, license: NewLicense): License {
  return db.insert(licenses).values(license).returning().get();
}

export function updateLicense(db: Db, id: number, fields: Partial<NewLicense>): License | undefined {
  return db.update(licenses).set(fields).where(eq(licenses.id, id)).returning().get();
}

export function deleteLicense(db: Db, id: number): License | undefined {
  return db.delete(licenses).where(eq(licenses.id, id)).returning().get();
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
