// The machines shown with each license (issue 12, item 6: name, platform, last check-in; the owner and the
// admins deactivate them). Read-only: activations and deactivations are written by the activation API.
import { asc, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { preparedFor, preparedRows } from '../../db/prepared.ts';
import { licenseMachines } from '../../db/schema.ts';

/** A machine as license objects carry it, with the end of its lease (a floating seat's end time, issue 24). */
export interface MachineView {
  id: number;
  name: string | null;
  platform: string | null;
  fingerprint: string;
  activated_at: string;
  last_check_in_at: string;
  lease_expires_at: string;
}

const machineColumns = {
  license_id: licenseMachines.license_id,
  id: licenseMachines.id,
  name: licenseMachines.name,
  platform: licenseMachines.platform,
  fingerprint: licenseMachines.fingerprint,
  activated_at: licenseMachines.activated_at,
  last_check_in_at: licenseMachines.last_check_in_at,
  lease_expires_at: licenseMachines.lease_expires_at,
};

// GET /api/user asks on every signed-in page load: prepared once per connection. The ids travel as one
// JSON parameter, so one statement serves any number of licenses (the admin's getAll included).
const machinesOfLicensesStatement = (db: Db) =>
  preparedRows(
    db
      .select(machineColumns)
      .from(licenseMachines)
      .where(sql`${licenseMachines.license_id} in (select value from json_each(${sql.placeholder('ids')}))`)
      .orderBy(asc(licenseMachines.license_id), asc(licenseMachines.activated_at), asc(licenseMachines.id)),
  );

/** The machines of these licenses by license id, oldest activation first; every id has an entry (maybe empty). */
export function listMachinesOfLicenses(db: Db, licenseIds: readonly number[]): Map<number, MachineView[]> {
  const byLicense = new Map<number, MachineView[]>(licenseIds.map((id) => [id, []]));
  if (licenseIds.length === 0) return byLicense;
  const rows = preparedFor(db, machinesOfLicensesStatement, machinesOfLicensesStatement).all({ ids: JSON.stringify(licenseIds) });
  for (const { license_id, ...machine } of rows) byLicense.get(license_id)?.push(machine);
  return byLicense;
}
