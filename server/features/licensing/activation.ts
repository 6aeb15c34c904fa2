// What a license lets the company's software do (docs/licensing.md): its state, activating and
// deactivating machines against its limit, and the signed file it gets. Used alike by the software's API
// (routes.ts) and the owner's and admins' browser calls (machine-routes.ts), so a seat taken through the
// dashboard counts exactly like one taken by the software.
//
// The limit holds under concurrency because the count and the insert are one BEGIN IMMEDIATE transaction
// (docs/engineering.md#habits, habit 4): of many simultaneous activations, from any serving process, each
// sees the machines the ones before it committed.
//
// Floating types (issue 24, item 4; docs/licensing.md#floating-seats): an activation is a lease on one of
// the seats that ends `lease_minutes` after the last activation or heartbeat. A lapsed lease holds no seat:
// it is removed in the next activation's transaction (before the count), and neither validate nor the
// license objects count it meanwhile. A node-locked license's machine keeps the LICENSE_LEASE_DAYS lease.
import type { AppContext } from '../../context.ts';
import { writeTransaction } from '../../db/client.ts';
import type { License } from '../../db/schema.ts';
import { DAY_MS } from './license-dates.ts';
import { signLicenseFile, type LicenseClaims } from './license-file.ts';
import {
  deleteLapsedLeases,
  deleteMachine,
  getLicenseForSoftware,
  findLicenseByKey,
  getMachineOfLicense,
  insertMachine,
  listMachinesOfLicense,
  renewLeaseIfDecisionHolds,
  renewMachine,
  type ActorKind,
  type LicenseForSoftware,
  type LicenseMachine,
} from './queries.ts';
import { recordLicenseEvent } from './events.ts';
import { licenseStatusCode, type LicenseStatusCode } from './license-status.ts';
import { licenseTerms, missingEntitlements } from './license-terms.ts';
import { holdsSeat, liveMachines } from './seats.ts';
import { announceMachine } from './webhooks.ts';

export type LicenseState = LicenseStatusCode;
export type ActivationRefusal = Exclude<LicenseState, 'VALID'> | 'TOO_MANY_MACHINES' | 'ENTITLEMENTS_MISSING';

const MINUTE_MS = 60_000;

/** The terms (type, effective entitlements, maintenance) of a license as the software's API reads it. */
export function termsOf(license: LicenseForSoftware) {
  return licenseTerms(license, { name: license.type_name, entitlements: license.type_entitlements });
}

/** When a lease taken or renewed now ends: minutes for a floating license, LICENSE_LEASE_DAYS otherwise. */
function leaseEnd(ctx: AppContext, license: LicenseForSoftware, now: number): string {
  const length = license.type_floating === 1 ? license.type_lease_minutes * MINUTE_MS : ctx.config.licenseLeaseDays * DAY_MS;
  return new Date(now + length).toISOString();
}

export interface Actor {
  kind: ActorKind;
  /** The signed-in owner or admin; null for the software. */
  userId: number | null;
}

export const SOFTWARE: Actor = { kind: 'software', userId: null };
const SYSTEM: Actor = { kind: 'system', userId: null };

/** The software's view of a license is the one the dashboard shows (license-status.ts): one rule for both. */
export const licenseState: (license: Pick<License, 'active' | 'suspended' | 'expire_date'>, now: number) => LicenseState = licenseStatusCode;

export interface MachineInput {
  fingerprint: string;
  name?: string | null | undefined;
  platform?: string | null | undefined;
}

export type ActivationResult =
  | { ok: true; machine: LicenseMachine; created: boolean; license: LicenseForSoftware }
  | { ok: false; code: Exclude<ActivationRefusal, 'ENTITLEMENTS_MISSING'> }
  | { ok: false; code: 'ENTITLEMENTS_MISSING'; missing: string[] };

/**
 * Activates the machine, or renews it (a check-in: new lease, name and platform as reported now) when
 * this fingerprint is already activated. Reads the license again inside the transaction, so a suspension
 * or a lowered limit committed a moment before is respected.
 */
export function activateMachine(
  ctx: AppContext,
  license: Pick<License, 'id'>,
  input: MachineInput,
  actor: Actor,
  asked: { entitlements?: readonly string[] | undefined } = {},
): ActivationResult {
  return writeTransaction(ctx.db, (): ActivationResult => {
    const current = getLicenseForSoftware(ctx.db, license.id);
    const now = ctx.now();
    if (!current) return { ok: false, code: 'NOT_ACTIVE' };
    const state = licenseState(current, now);
    if (state !== 'VALID') return { ok: false, code: state };
    // Before any seat is looked at: a license without the features asked for takes none.
    const missing = missingEntitlements(termsOf(current), asked.entitlements);
    if (missing.length > 0) return { ok: false, code: 'ENTITLEMENTS_MISSING', missing };
    const at = new Date(now).toISOString();
    const lease = leaseEnd(ctx, current, now);
    if (current.type_floating === 1) {
      for (const lapsed of deleteLapsedLeases(ctx.db, current.id, at)) recordMachineEvent(ctx, current.id, SYSTEM, 'lease_ended', lapsed, at);
    }
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

export type HeartbeatResult =
  { ok: true; machine: LicenseMachine; license: LicenseForSoftware } | { ok: false; code: Exclude<LicenseState, 'VALID'> | 'HEARTBEAT_DEAD' | 'NOT_FOUND' };

type HeartbeatDecision = { ok: true; license: LicenseForSoftware; machine: LicenseMachine } | Extract<HeartbeatResult, { ok: false }>;

/** Whether the machine of `fingerprint` may renew its lease: a live lease that holds one of the seats. */
function decideHeartbeat(current: LicenseForSoftware | undefined, machines: () => LicenseMachine[], fingerprint: string, now: number): HeartbeatDecision {
  if (!current) return { ok: false, code: 'NOT_FOUND' };
  const state = licenseState(current, now);
  if (state !== 'VALID') return { ok: false, code: state };
  const all = machines();
  const machine = all.find((candidate) => candidate.fingerprint === fingerprint);
  if (!machine || Date.parse(machine.lease_expires_at) <= now) return { ok: false, code: 'HEARTBEAT_DEAD' };
  if (!holdsSeat(liveMachines({ floating: current.type_floating }, all, now), machine.id, current.max_machines)) return { ok: false, code: 'HEARTBEAT_DEAD' };
  return { ok: true, license: current, machine };
}

/**
 * A heartbeat (POST /api/licensing/v1/heartbeat): renews the lease of a machine that holds one. A lease
 * that has lapsed is dead, its seat already free to anyone: the software must activate again (and may find
 * every seat taken). Works for node-locked licenses too, as a check-in without a new activation.
 *
 * Every floating seat sends one every few minutes, from every serving process, and the write lock is the
 * database's: so the decision is read without that lock, and the lease renewed by one UPDATE that only
 * applies if the decision still holds (renewLeaseIfDecisionHolds), in a write transaction of its own for
 * writeTransaction's quick lock retries (server/db/client.ts). What the decision read can only move in
 * ways that keep it: seats go by activation, an activation is always the newest, a lapsed lease only comes
 * back by a new activation, and a lease only moves later (another process's heartbeat of the same machine,
 * which the UPDATE accepts); the license's state and limit it checks again. So the reads need no common
 * snapshot either. When anything else moved (the machine is gone, an admin changed the license), the
 * heartbeat is decided again inside BEGIN IMMEDIATE, as activations are. The key is in its stored form
 * (normaliseLicenseKey). (Holding the lock for the reads too made two serving processes slower than one,
 * and requiring the very lease it read sent one heartbeat in six of two processes down the slow
 * path; bench: heartbeat.)
 */
export function heartbeat(ctx: AppContext, storedKey: string, fingerprint: string): HeartbeatResult {
  const now = ctx.now();
  const at = new Date(now).toISOString();
  const found = findLicenseByKey(ctx.db, storedKey);
  const unlocked = decideHeartbeat(found, () => listMachinesOfLicense(ctx.db, found?.id ?? 0), fingerprint, now);
  if (!unlocked.ok) return unlocked;
  const reading = { machineId: unlocked.machine.id, readLease: unlocked.machine.lease_expires_at, license: unlocked.license };
  const renewed = writeTransaction(ctx.db, () => renewLeaseIfDecisionHolds(ctx.db, reading, at, leaseEnd(ctx, unlocked.license, now)));
  if (renewed) return { ok: true, machine: renewed, license: unlocked.license };
  return writeTransaction(ctx.db, (): HeartbeatResult => {
    const current = findLicenseByKey(ctx.db, storedKey);
    const decision = decideHeartbeat(current, () => listMachinesOfLicense(ctx.db, current?.id ?? 0), fingerprint, now);
    if (!decision.ok) return decision;
    const machine = renewMachine(ctx.db, decision.machine.id, { last_check_in_at: at, lease_expires_at: leaseEnd(ctx, decision.license, now) });
    if (!machine) throw new Error(`machine ${decision.machine.id} vanished inside the transaction`);
    return { ok: true, machine, license: decision.license };
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
  if (action === 'machine_activated' || action === 'machine_deactivated') announceMachine(ctx, licenseId, action, machine);
}

/** The `license` claims of a file (docs/licensing.md, file format), also what validate answers. */
export function licenseClaims(license: LicenseForSoftware): LicenseClaims {
  return {
    id: license.id,
    // The file carries the key so the software can show and re-check it; the file is the owner's to hold.
    key: license.key ?? '',
    ...termsOf(license),
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
