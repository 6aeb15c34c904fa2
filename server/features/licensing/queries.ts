// Named queries of licensing (docs/architecture.md#data): a license as the company's software sees it
// (found by its key), the machines it is activated on, and its events. The lookups by key and the
// machines of a license run on every call of POST /api/licensing/v1/validate, so they are statements
// prepared once per connection (server/db/prepared.ts), like the other hot reads.
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { preparedFor } from '../../db/prepared.ts';
import { licenseEvents, licenseMachines, licenseTypes, licenses, users, type License } from '../../db/schema.ts';

export type LicenseMachine = typeof licenseMachines.$inferSelect;
export type LicenseEvent = typeof licenseEvents.$inferSelect;
export type ActorKind = LicenseEvent['actor_kind'];

/** A license with what its file names: the type's name and the owner's name, company and e-mail. */
export interface LicenseForSoftware extends License {
  type_name: string;
  owner_name: string;
  owner_surname: string | null;
  owner_company: string | null;
  owner_email: string;
}

const licenseForSoftwareQuery = (db: Db) =>
  db
    .select({
      license: licenses,
      type_name: licenseTypes.name,
      owner_name: users.name,
      owner_surname: users.surname,
      owner_company: users.companyName,
      owner_email: users.email,
    })
    .from(licenses)
    .innerJoin(licenseTypes, eq(licenses.license_type_id, licenseTypes.id))
    .innerJoin(users, eq(licenses.user_id, users.id));

type LicenseForSoftwareRow = {
  license: License;
  type_name: string;
  owner_name: string;
  owner_surname: string | null;
  owner_company: string | null;
  owner_email: string;
};

function flatten(row: LicenseForSoftwareRow | undefined): LicenseForSoftware | undefined {
  if (!row) return undefined;
  const { license, ...owner } = row;
  return { ...license, ...owner };
}

const byKeyStatement = (db: Db) =>
  licenseForSoftwareQuery(db)
    .where(eq(licenses.key, sql.placeholder('key')))
    .prepare();
const byIdStatement = (db: Db) =>
  licenseForSoftwareQuery(db)
    .where(eq(licenses.id, sql.placeholder('id')))
    .prepare();

/** The license a key (in its stored form, see normaliseLicenseKey) belongs to. */
export function findLicenseByKey(db: Db, key: string): LicenseForSoftware | undefined {
  return flatten(preparedFor(db, byKeyStatement, byKeyStatement).get({ key }));
}

export function getLicenseForSoftware(db: Db, id: number): LicenseForSoftware | undefined {
  return flatten(preparedFor(db, byIdStatement, byIdStatement).get({ id }));
}

const machinesOfLicenseStatement = (db: Db) =>
  db
    .select()
    .from(licenseMachines)
    .where(eq(licenseMachines.license_id, sql.placeholder('licenseId')))
    .orderBy(asc(licenseMachines.activated_at), asc(licenseMachines.id))
    .prepare();

/**
 * The machines of a license, first activated first: when an admin lowers the limit below the machines
 * already activated, the earliest keep their seats (server/features/licensing/activation.ts).
 */
export function listMachinesOfLicense(db: Db, licenseId: number): LicenseMachine[] {
  return preparedFor(db, machinesOfLicenseStatement, machinesOfLicenseStatement).all({ licenseId });
}

/** The machines of many licenses in one query (the ids travel as one JSON parameter). */
export function listMachinesOfLicenses(db: Db, licenseIds: readonly number[]): LicenseMachine[] {
  if (licenseIds.length === 0) return [];
  return db
    .select()
    .from(licenseMachines)
    .where(sql`${licenseMachines.license_id} in (select value from json_each(${JSON.stringify(licenseIds)}))`)
    .orderBy(asc(licenseMachines.license_id), asc(licenseMachines.activated_at), asc(licenseMachines.id))
    .all();
}

export function getMachineOfLicense(db: Db, licenseId: number, machineId: number): LicenseMachine | undefined {
  return db
    .select()
    .from(licenseMachines)
    .where(and(eq(licenseMachines.license_id, licenseId), eq(licenseMachines.id, machineId)))
    .get();
}

export type NewLicenseMachine = typeof licenseMachines.$inferInsert;

export function insertMachine(db: Db, machine: NewLicenseMachine): LicenseMachine {
  return db.insert(licenseMachines).values(machine).returning().get();
}

/** A check-in: the machine's last contact, its new lease, and the name and platform it reports now. */
export function renewMachine(
  db: Db,
  machineId: number,
  fields: Pick<LicenseMachine, 'last_check_in_at' | 'lease_expires_at'> & Partial<Pick<LicenseMachine, 'name' | 'platform'>>,
): LicenseMachine | undefined {
  return db.update(licenseMachines).set(fields).where(eq(licenseMachines.id, machineId)).returning().get();
}

export function deleteMachine(db: Db, machineId: number): LicenseMachine | undefined {
  return db.delete(licenseMachines).where(eq(licenseMachines.id, machineId)).returning().get();
}

export interface NewLicenseEvent {
  license_id: number;
  actor_user_id: number | null;
  actor_kind: ActorKind;
  action: string;
  /** What changed; never the license key (docs/licensing.md: keys appear in no log or event). */
  detail: Record<string, unknown>;
  created_at: string;
}

export function insertLicenseEvent(db: Db, event: NewLicenseEvent): LicenseEvent {
  return db
    .insert(licenseEvents)
    .values({ ...event, detail: JSON.stringify(event.detail) })
    .returning()
    .get();
}

export interface LicenseEventView {
  id: number;
  action: string;
  actor_kind: ActorKind;
  /** The acting user's name; null for the software, the system, or a user since deleted. */
  actor_name: string | null;
  detail: Record<string, unknown>;
  created_at: string;
}

/** A license's events, newest first, for GET /api/license/{id}/events. */
export function listLicenseEvents(db: Db, licenseId: number): LicenseEventView[] {
  return db
    .select({ event: licenseEvents, actor_name: users.name })
    .from(licenseEvents)
    .leftJoin(users, eq(licenseEvents.actor_user_id, users.id))
    .where(eq(licenseEvents.license_id, licenseId))
    .orderBy(desc(licenseEvents.created_at), desc(licenseEvents.id))
    .all()
    .map(({ event, actor_name }) => ({
      id: event.id,
      action: event.action,
      actor_kind: event.actor_kind,
      actor_name,
      detail: parseDetail(event.detail),
      created_at: event.created_at,
    }));
}

function parseDetail(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
