// What a license lets the company's software do (docs/licensing.md): its state, activating and
// deactivating machines against its limit, and the signed file it gets. Used alike by the software's API
// (routes.ts) and the owner's and admins' browser calls (machine-routes.ts), so a seat taken through the
// dashboard counts exactly like one taken by the software.
//
// The limit holds under concurrency because the count and the insert are one BEGIN IMMEDIATE transaction
// (docs/engineering.md#habits, habit 4): of many simultaneous activations, from any serving process, each
// sees the machines the ones before it committed.
import type { AppContext } from '../../context.ts';
import { writeTransaction } from '../../db/client.ts';
import type { License } from '../../db/schema.ts';
import { DAY_MS } from './license-dates.ts';
import { signLicenseFile, type LicenseClaims } from './license-file.ts';
import {
  deleteMachine,
  getLicenseForSoftware,
  getMachineOfLicense,
  insertMachine,
  listMachinesOfLicense,
  renewMachine,
  type ActorKind,
  type LicenseForSoftware,
  type LicenseMachine,
} from './queries.ts';
import { recordLicenseEvent } from './events.ts';
import { licenseStatusCode, type LicenseStatusCode } from './license-status.ts';

export type LicenseState = LicenseStatusCode;
export type ActivationRefusal = Exclude<LicenseState, 'VALID'> | 'TOO_MANY_MACHINES';

export interface Actor {
  kind: ActorKind;
  /** The signed-in owner or admin; null for the software. */
  userId: number | null;
}

export const SOFTWARE: Actor = { kind: 'software', userId: null };

/** The software's view of a license is the one the dashboard shows (license-status.ts): one rule for both. */
export const licenseState: (license: Pick<License, 'active' | 'suspended' | 'expire_date'>, now: number) => LicenseState = licenseStatusCode;

/**
 * Whether a machine holds one of the license's seats. Normally every activated machine does; when an
 * admin lowers the limit below the machines already activated, the ones activated first keep theirs and
 * the rest are told TOO_MANY_MACHINES until one is deactivated.
 */
export function holdsSeat(machines: readonly LicenseMachine[], machineId: number, maxMachines: number): boolean {
  const rank = machines.findIndex((machine) => machine.id === machineId);
  return rank >= 0 && rank < maxMachines;
}

export interface MachineInput {
  fingerprint: string;
  name?: string | null | undefined;
  platform?: string | null | undefined;
}

export type ActivationResult = { ok: true; machine: LicenseMachine; created: boolean; license: LicenseForSoftware } | { ok: false; code: ActivationRefusal };

/**
 * Activates the machine, or renews it (a check-in: new lease, name and platform as reported now) when
 * this fingerprint is already activated. Reads the license again inside the transaction, so a suspension
 * or a lowered limit committed a moment before is respected.
 */
export function activateMachine(ctx: AppContext, license: Pick<License, 'id'>, input: MachineInput, actor: Actor): ActivationResult {
  return writeTransaction(ctx.db, (): ActivationResult => {
    const current = getLicenseForSoftware(ctx.db, license.id);
    const now = ctx.now();
    if (!current) return { ok: false, code: 'NOT_ACTIVE' };
    const state = licenseState(current, now);
    if (state !== 'VALID') return { ok: false, code: state };
    const at = new Date(now).toISOString();
    const lease = new Date(now + ctx.config.licenseLeaseDays * DAY_MS).toISOString();
    const machines = listMachinesOfLicense(ctx.db, current.id);
    const existing = machines.find((machine) => machine.fingerprint === input.fingerprint);
    if (existing) {
      if (!holdsSeat(machines, existing.id, current.max_machines)) return { ok: false, code: 'TOO_MANY_MACHINES' };
      const renewed = renewMachine(ctx.db, existing.id, {
        last_check_in_at: at,
        lease_expires_at: lease,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.platform !== undefined ? { platform: input.platform } : {}),
      });
      if (!renewed) throw new Error(`machine ${existing.id} vanished inside the transaction`);
      return { ok: true, machine: renewed, created: false, license: current };
    }
    if (machines.length >= current.max_machines) return { ok: false, code: 'TOO_MANY_MACHINES' };
    const machine = insertMachine(ctx.db, {
      license_id: current.id,
      fingerprint: input.fingerprint,
      name: input.name ?? null,
      platform: input.platform ?? null,
      activated_at: at,
      last_check_in_at: at,
      lease_expires_at: lease,
    });
    recordMachineEvent(ctx, current.id, actor, 'machine_activated', machine, at);
    return { ok: true, machine, created: true, license: current };
  });
}

export type MachineTarget = { fingerprint: string } | { machineId: number };

/** Frees the machine's seat; null when the license has no such machine. Allowed whatever the license's state. */
export function deactivateMachine(ctx: AppContext, license: Pick<License, 'id'>, target: MachineTarget, actor: Actor): LicenseMachine | null {
  return writeTransaction(ctx.db, () => {
    const machine =
      'machineId' in target
        ? getMachineOfLicense(ctx.db, license.id, target.machineId)
        : listMachinesOfLicense(ctx.db, license.id).find((candidate) => candidate.fingerprint === target.fingerprint);
    if (!machine) return null;
    deleteMachine(ctx.db, machine.id);
    recordMachineEvent(ctx, license.id, actor, 'machine_deactivated', machine, new Date(ctx.now()).toISOString());
    return machine;
  });
}

function recordMachineEvent(ctx: AppContext, licenseId: number, actor: Actor, action: string, machine: LicenseMachine, at: string): void {
  recordLicenseEvent(ctx.db, {
    licenseId,
    actorUserId: actor.userId,
    actorKind: actor.kind,
    action,
    detail: { machine_id: machine.id, fingerprint: machine.fingerprint, name: machine.name, platform: machine.platform },
    at,
  });
}

/** The `license` claims of a file (docs/licensing.md, file format), also what validate answers. */
export function licenseClaims(license: LicenseForSoftware): LicenseClaims {
  return {
    id: license.id,
    // The file carries the key so the software can show and re-check it; the file is the owner's to hold.
    key: license.key ?? '',
    type: license.type_name,
    user_name: [license.owner_name, license.owner_surname].filter(Boolean).join(' '),
    company_name: license.owner_company,
    email: license.owner_email,
    max_machines: license.max_machines,
    expire_date: license.expire_date,
  };
}

/** A signed license file; bound to `machine` (and expiring with its lease) when one is given. */
export function issueFileFor(ctx: AppContext, license: LicenseForSoftware, machine?: LicenseMachine): Promise<string> {
  return signLicenseFile(ctx.keyring(), {
    issuer: ctx.config.siteUrl,
    license: licenseClaims(license),
    ...(machine ? { machine: { fingerprint: machine.fingerprint, name: machine.name, leaseExpiresAt: new Date(machine.lease_expires_at) } } : {}),
    now: new Date(ctx.now()),
  });
}
