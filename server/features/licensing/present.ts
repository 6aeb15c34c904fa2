// The license object clients receive (docs/admin-api.md#the-license-object-license): the stored license with
// its type name, plus its machines and its status (issue 12, items 1, 5 and 6). Keys and machines are for
// the license's owner and the admins only: for anyone else they are blanked here, in the one place every
// answer that carries licenses goes through, so a new caller cannot leak them by forgetting a check.
import { isAdmin } from '../../auth/guards.ts';
import type { Db } from '../../db/client.ts';
import type { LicenseWithType } from './queries.ts';
import { licenseStatus, type LicenseStatus } from './license-status.ts';
import { listMachinesOfLicenses, type MachineView } from './machine-list.ts';
import { listLicenseEvents, type LicenseEventView, type LicenseMachine } from './queries.ts';

export type LicenseView = LicenseWithType & { machines: MachineView[]; status: LicenseStatus };

/** Who is looking: the signed-in user of the request. */
export interface LicenseViewer {
  id: number;
  role: string;
}

/** The owner and the admins see a license's key and machines (and act on them). */
export function mayManageLicense(viewer: LicenseViewer, license: Pick<LicenseWithType, 'user_id'>): boolean {
  return viewer.id === license.user_id || isAdmin(viewer);
}

/** Licenses as answers carry them: one query for all their machines, whatever their number. */
export function presentLicenses(db: Db, licenses: readonly LicenseWithType[], options: { viewer: LicenseViewer; now: number }): LicenseView[] {
  const visible = licenses.filter((license) => mayManageLicense(options.viewer, license));
  const machines = listMachinesOfLicenses(
    db,
    visible.map((license) => license.id),
  );
  return licenses.map((license) => {
    const status = licenseStatus(license, options.now);
    if (!mayManageLicense(options.viewer, license)) return { ...license, key: null, machines: [], status };
    return { ...license, machines: machines.get(license.id) ?? [], status };
  });
}

export function presentLicense(db: Db, license: LicenseWithType, options: { viewer: LicenseViewer; now: number }): LicenseView {
  const [view] = presentLicenses(db, [license], options);
  if (!view) throw new Error('presentLicenses dropped a license');
  return view;
}

/** A license's events as a viewer may see them (a user's own data export; the admins read them at GET /api/license/{id}/events). */
export type LicenseEventForViewer = Omit<LicenseEventView, 'actor_name'> & { actor_name?: string | null };

/**
 * The events of a license for whoever may manage it (mayManageLicense), none for anyone else. The acting
 * person's name is for the admins only: to the owner an admin's name is someone else's data, and the
 * actor kind already says who acted (an admin, the owner, the software, the system).
 */
export function presentLicenseEvents(db: Db, license: Pick<LicenseWithType, 'id' | 'user_id'>, viewer: LicenseViewer): LicenseEventForViewer[] {
  if (!mayManageLicense(viewer, license)) return [];
  const events = listLicenseEvents(db, license.id);
  if (isAdmin(viewer)) return events;
  return events.map(({ actor_name: _hidden, ...event }) => event);
}

/** The machine as the software and the owner see it. */
export function presentMachine(machine: LicenseMachine) {
  return {
    id: machine.id,
    fingerprint: machine.fingerprint,
    name: machine.name,
    platform: machine.platform,
    activated_at: machine.activated_at,
    last_check_in_at: machine.last_check_in_at,
    lease_expires_at: machine.lease_expires_at,
  };
}
