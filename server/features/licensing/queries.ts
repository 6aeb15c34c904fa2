// Named queries of licensing (docs/architecture.md#data): a license as the company's software sees it
// (found by its key), the machines it is activated on, and its events. The lookups by key and the
// machines of a license run on every call of POST /api/licensing/v1/validate, so they are statements
// prepared once per connection (server/db/prepared.ts), like the other hot reads.
//
// Named queries for licenses (docs/product/data-model.md#license): clients read the type's name as `license_type.name`.
//
// License requests as inbox items (docs/product/admin.md#inbox). Shared: the user's Request License opens one, every grant
// closes the user's open ones (syncLicenseFlags), the inbox reads and declines them.
//
// License types are the license-types feature's (server/features/license-types/).
import { and, asc, desc, eq, gt, gte, lte, or, sql, type SQL, isNull, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { preparedFor, preparedRows } from '../../db/prepared.ts';
import { rowsByIndex } from '../../db/rows-by-index.ts';
import {
  licenseEvents,
  licenseMachines,
  licenseTypes,
  licenses,
  users,
  type License,
  licenseRequests,
  type LicenseRequest,
  type User,
} from '../../db/schema.ts';
import { generateLicenseKey } from '../../auth/license-keys.ts';

export type LicenseMachine = typeof licenseMachines.$inferSelect;
export type LicenseEvent = typeof licenseEvents.$inferSelect;
export type ActorKind = LicenseEvent['actor_kind'];

/** A license with what its file names: its type's terms and the owner's name, company and e-mail. */
export interface LicenseForSoftware extends License {
  type_name: string;
  type_entitlements: string;
  type_floating: number;
  type_lease_minutes: number;
  owner_name: string;
  owner_surname: string | null;
  owner_company: string | null;
  owner_email: string;
}

/** The select a license is read with for the company's software: the license, its type's terms and its owner. */
export const licenseForSoftwareQuery = (db: Db) =>
  db
    .select({
      license: licenses,
      type_name: licenseTypes.name,
      type_entitlements: licenseTypes.entitlements,
      type_floating: licenseTypes.floating,
      type_lease_minutes: licenseTypes.lease_minutes,
      owner_name: users.name,
      owner_surname: users.surname,
      owner_company: users.companyName,
      owner_email: users.email,
    })
    .from(licenses)
    .innerJoin(licenseTypes, eq(licenses.license_type_id, licenseTypes.id))
    .innerJoin(users, eq(licenses.user_id, users.id));

/** A row of licenseForSoftwareQuery: the license beside what flatten puts on it. */
type LicenseForSoftwareRow = { license: License } & Omit<LicenseForSoftware, keyof License>;

function flatten(row: LicenseForSoftwareRow | undefined): LicenseForSoftware | undefined {
  if (!row) return undefined;
  const { license, ...owner } = row;
  return { ...license, ...owner };
}

const byKeyStatement = (db: Db) => preparedRows(licenseForSoftwareQuery(db).where(rowsByIndex(licenses, eq(licenses.key, sql.placeholder('key')))));
const byIdStatement = (db: Db) => preparedRows(licenseForSoftwareQuery(db).where(rowsByIndex(licenses, eq(licenses.id, sql.placeholder('id')))));

/** The license a key (in its stored form, see normaliseLicenseKey) belongs to. */
export function findLicenseByKey(db: Db, key: string): LicenseForSoftware | undefined {
  return flatten(preparedFor(db, byKeyStatement, byKeyStatement).get({ key }));
}

export function getLicenseForSoftware(db: Db, id: number): LicenseForSoftware | undefined {
  return flatten(preparedFor(db, byIdStatement, byIdStatement).get({ id }));
}

const machinesOfLicenseStatement = (db: Db) =>
  preparedRows(
    db
      .select()
      .from(licenseMachines)
      .where(rowsByIndex(licenseMachines, eq(licenseMachines.license_id, sql.placeholder('licenseId'))))
      .orderBy(asc(licenseMachines.activated_at), asc(licenseMachines.id)),
  );

/**
 * The machines of a license, first activated first: when an admin lowers the limit below the machines
 * already activated, the earliest keep their seats (server/features/licensing/activation.ts).
 */
export function listMachinesOfLicense(db: Db, licenseId: number): LicenseMachine[] {
  return preparedFor(db, machinesOfLicenseStatement, machinesOfLicenseStatement).all({ licenseId });
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

const renewLeaseIfDecisionHoldsStatement = (db: Db) =>
  db
    .update(licenseMachines)
    .set({
      last_check_in_at: sql`max(${licenseMachines.last_check_in_at}, ${sql.placeholder('at')})`,
      lease_expires_at: sql`max(${licenseMachines.lease_expires_at}, ${sql.placeholder('lease')})`,
    })
    .where(
      and(
        eq(licenseMachines.id, sql.placeholder('machineId')),
        gte(licenseMachines.lease_expires_at, sql.placeholder('readLease')),
        sql`exists (select 1 from ${licenses} where ${licenses.id} = ${licenseMachines.license_id}
          and ${licenses.active} = ${sql.placeholder('active')} and ${licenses.suspended} = ${sql.placeholder('suspended')}
          and ${licenses.max_machines} = ${sql.placeholder('maxMachines')} and ${licenses.expire_date} is ${sql.placeholder('expireDate')})`,
      ),
    )
    .returning()
    .prepare();

/** What a heartbeat decided on: the machine's lease and the license columns its state and seat depend on. */
export interface HeartbeatReading {
  machineId: number;
  readLease: string;
  license: Pick<License, 'active' | 'suspended' | 'max_machines' | 'expire_date'>;
}

/**
 * Renews the lease in one statement, and only if the decision still holds: the machine is there with a lease
 * that ends no earlier than the one read (another serving process's heartbeat of the same machine may have
 * renewed it since, which keeps the decision; the later end and check-in stay), and the license's state and
 * limit are as read (an admin's edit). Undefined when anything else moved; the caller then decides again
 * under the write lock.
 */
export function renewLeaseIfDecisionHolds(db: Db, reading: HeartbeatReading, at: string, lease: string): LicenseMachine | undefined {
  const { license } = reading;
  return preparedFor(db, renewLeaseIfDecisionHoldsStatement, renewLeaseIfDecisionHoldsStatement).get({
    machineId: reading.machineId,
    readLease: reading.readLease,
    active: license.active,
    suspended: license.suspended,
    maxMachines: license.max_machines,
    expireDate: license.expire_date,
    at,
    lease,
  });
}

/** A check-in: the machine's last contact, its new lease, and the name and platform it reports now. */
export function renewMachine(
  db: Db,
  machineId: number,
  fields: Pick<LicenseMachine, 'last_check_in_at' | 'lease_expires_at'> & Partial<Pick<LicenseMachine, 'name' | 'platform'>>,
): LicenseMachine | undefined {
  return db.update(licenseMachines).set(fields).where(eq(licenseMachines.id, machineId)).returning().get();
}

/**
 * Frees the seats of a floating license's lapsed leases (issue 24, item 4): a lease that ended holds no
 * seat, at once, whether or not anyone deactivated it. Run in the activation's transaction.
 */
export function deleteLapsedLeases(db: Db, licenseId: number, nowIso: string): LicenseMachine[] {
  return db
    .delete(licenseMachines)
    .where(and(eq(licenseMachines.license_id, licenseId), lte(licenseMachines.lease_expires_at, nowIso)))
    .returning()
    .all();
}

export function deleteMachine(db: Db, machineId: number): LicenseMachine | undefined {
  return db.delete(licenseMachines).where(eq(licenseMachines.id, machineId)).returning().get();
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

/** What a license's type decides about it besides its stored fields (issue 24): terms and floating seats. */
export interface LicenseTypeTerms {
  name: string;
  /** The type's JSON array of entitlement codes (license-terms.ts reads it). */
  entitlements: string;
  floating: number;
  lease_minutes: number;
}

export type LicenseWithType = License & { license_type: LicenseTypeTerms };
export type NewLicense = typeof licenses.$inferInsert;

const licensesWithTypeQuery = (db: Db, where: SQL | undefined) =>
  db
    .select({
      license: licenses,
      type: { name: licenseTypes.name, entitlements: licenseTypes.entitlements, floating: licenseTypes.floating, lease_minutes: licenseTypes.lease_minutes },
    })
    .from(licenses)
    .innerJoin(licenseTypes, eq(licenses.license_type_id, licenseTypes.id))
    .where(where)
    .orderBy(asc(licenses.user_id), asc(licenses.id));

const withTypeName = (rows: { license: License; type: LicenseTypeTerms }[]): LicenseWithType[] =>
  rows.map(({ license, type }) => ({ ...license, license_type: type }));

function selectLicensesWithType(db: Db, where: SQL | undefined): LicenseWithType[] {
  return withTypeName(licensesWithTypeQuery(db, where).all());
}

// Every signed-in page load asks for the user's licenses (GET /api/user): prepared once.
const licensesOfUserStatement = (db: Db) => preparedRows(licensesWithTypeQuery(db, rowsByIndex(licenses, eq(licenses.user_id, sql.placeholder('userId')))));

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

/** Every new license gets its key here (server/auth/license-keys.ts), whoever creates it. */
export function insertLicense(db: Db, license: NewLicense): License {
  return db
    .insert(licenses)
    .values({ ...license, key: license.key ?? generateLicenseKey() })
    .returning()
    .get();
}

export function updateLicense(db: Db, id: number, fields: Partial<NewLicense>): License | undefined {
  return db.update(licenses).set(fields).where(eq(licenses.id, id)).returning().get();
}

export function deleteLicense(db: Db, id: number): License | undefined {
  return db.delete(licenses).where(eq(licenses.id, id)).returning().get();
}

/**
 * Whether the user holds a license marked active that has not expired (the dashboard then hides the
 * Request License button). An expired license no longer counts (issue 24, item 6): its owner may ask again,
 * and an admin decides.
 */
export function hasActiveLicense(db: Db, userId: number, nowIso: string): boolean {
  return (
    db
      .select({ id: licenses.id })
      .from(licenses)
      .where(and(eq(licenses.user_id, userId), eq(licenses.active, 1), or(isNull(licenses.expire_date), gt(licenses.expire_date, nowIso))))
      .limit(1)
      .get() !== undefined
  );
}

export function insertLicenseRequest(db: Db, userId: number, atIso: string): LicenseRequest {
  return db.insert(licenseRequests).values({ user_id: userId, created_at: atIso }).returning().get();
}

export function getLicenseRequest(db: Db, id: number): LicenseRequest | undefined {
  return db.select().from(licenseRequests).where(eq(licenseRequests.id, id)).get();
}

/**
 * Closes the user's open requests with an outcome; how many it closed. A grant made anywhere (the license
 * form, the inbox, an automatic trial) answers the request, so the inbox never shows it as waiting.
 */
export function closeOpenLicenseRequests(
  db: Db,
  userId: number,
  close: { outcome: 'granted' | 'declined'; by: number | null; atIso: string; reason?: string },
): number {
  return (
    db
      .update(licenseRequests)
      .set({
        outcome: close.outcome,
        handled_at: close.atIso,
        handled_by: close.by,
        // Kept apart from handled_*, which Reopen clears (issue 28, item 3).
        decided_at: close.atIso,
        decided_by: close.by,
        read_at: sql`coalesce(${licenseRequests.read_at}, ${close.atIso})`,
        ...(close.reason === undefined ? {} : { decline_reason: close.reason }),
      })
      // A request reopened after its answer keeps that answer: a later grant or decline is about the newer request.
      .where(and(eq(licenseRequests.user_id, userId), isNull(licenseRequests.handled_at), isNull(licenseRequests.outcome)))
      .run().changes
  );
}

/**
 * Gives every user whose request flag is set, and who has no open request item, one (requests made before
 * the inbox existed). Runs at every start, in the caller's transaction; a no-op afterwards. The user's
 * last update is the best guess of when they asked.
 */
export function backfillLicenseRequests(db: Db): number {
  return db.run(sql`
    insert into ${licenseRequests} (user_id, created_at)
    select ${users.id}, ${users.updated_at} from ${users}
    where ${users.license_request} = 1
      and not exists (select 1 from ${licenseRequests} r where r.user_id = ${users.id} and r.handled_at is null)`).changes;
}

/** A user's license requests, oldest first, with how each was answered (their own data export). */
export function listLicenseRequestsOfUser(db: Db, userId: number): Pick<LicenseRequest, 'created_at' | 'handled_at' | 'outcome' | 'decline_reason'>[] {
  return db
    .select({
      created_at: licenseRequests.created_at,
      handled_at: licenseRequests.handled_at,
      outcome: licenseRequests.outcome,
      decline_reason: licenseRequests.decline_reason,
    })
    .from(licenseRequests)
    .where(eq(licenseRequests.user_id, userId))
    .orderBy(asc(licenseRequests.id))
    .all();
}

/**
 * Keeps the user's license flags in step with their licenses: `license_granted` is 1 while the user holds
 * an active license, else 0; a grant (`clearRequest`) also answers the pending request, the inbox item
 * included (handled by `by`, the granting admin; null for an automatic trial).
 */
export function syncLicenseFlags(db: Db, id: number, options: { clearRequest: boolean; by?: number | null }, atIso: string): User | undefined {
  if (options.clearRequest) closeOpenLicenseRequests(db, id, { outcome: 'granted', by: options.by ?? null, atIso });
  return db
    .update(users)
    .set({
      license_granted: sql`exists (select 1 from licenses where licenses.user_id = ${id} and licenses.active = 1)`,
      ...(options.clearRequest ? { license_request: 0 } : {}),
      updated_at: atIso,
    })
    .where(eq(users.id, id))
    .returning()
    .get();
}

/**
 * Licenses whose end has passed and whose expiry is not recorded yet (an `expired` event naming that end):
 * extended and expired again, a license gets a new one.
 */
export function listNewlyExpiredLicenseIds(db: Db, nowIso: string, limit: number): number[] {
  return db
    .select({ id: licenses.id })
    .from(licenses)
    .where(
      and(
        isNotNull(licenses.expire_date),
        lte(licenses.expire_date, nowIso),
        sql`not exists (select 1 from ${licenseEvents} where ${licenseEvents.license_id} = ${licenses.id} and ${licenseEvents.action} = 'expired' and json_extract(${licenseEvents.detail}, '$.expire_date') = ${licenses.expire_date})`,
      ),
    )
    .orderBy(asc(licenses.id))
    .limit(limit)
    .all()
    .map((row) => row.id);
}
