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
import { licenseTerms } from './license-terms.ts';
import { liveMachines } from './seats.ts';
import { parseEntitlements } from '../license-types/index.ts';

/**
 * A license as answers carry it. Issue 24: `type` (the type's name), `entitlements` (the effective list,
 * license-terms.ts), `extra_entitlements` (the license's own, for the admin's form), `maintenance_until`,
 * and for a floating type `floating: 1` with `lease_minutes`; its machines are then the live leases, each
 * with its end (`lease_expires_at`), so "2 of 3 seats in use" is `machines.length` of `max_machines`.
 */
export type LicenseView = Omit<LicenseWithType, 'extra_entitlements' | 'license_type'> & {
  license_type: { name: string };
  type: string;
  entitlements: string[];
  extra_entitlements: string[];
  maintenance_until: string | null;
  floating: 0 | 1;
  lease_minutes: number | null;
  machines: MachineView[];
  status: LicenseStatus;
};

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
  return presentLicensesWithMachines(licenses, machines, options);
}

/**
 * The presenting alone, the machines already read (by license id, as listMachinesOfLicenses gives them).
 * Also the bench's bare GET /api/user (bench/lib/bare-api-server.ts): it reads with its own raw statements
 * and answers through this, so the two answers cannot drift apart.
 */
export function presentLicensesWithMachines(
  licenses: readonly LicenseWithType[],
  machines: ReadonlyMap<number, readonly MachineView[]>,
  options: { viewer: LicenseViewer; now: number },
): LicenseView[] {
  return licenses.map((license) => {
    const { license_type: type, extra_entitlements, ...stored } = license;
    const floating = type.floating === 1 ? 1 : 0;
    const view = {
      ...stored,
      license_type: { name: type.name },
      ...licenseTerms(license, type),
      extra_entitlements: parseEntitlements(extra_entitlements),
      floating,
      lease_minutes: floating === 1 ? type.lease_minutes : null,
      status: licenseStatus(license, options.now),
    } as const;
    if (!mayManageLicense(options.viewer, license)) return { ...view, key: null, machines: [] };
    return { ...view, machines: liveMachines({ floating }, machines.get(license.id) ?? [], options.now) };
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
