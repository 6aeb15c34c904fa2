// An admin's license writes, shared by the license form (routes.ts, POST /api/license/store and PUT /update) and the inbox's
// Grant trial (server/features/inbox/routes.ts), so a grant from either place is the same grant: the same
// checks, dates, user flags, license events and "your license is active" mail (docs/product/admin.md#licenses).
// Issue 24: a left-out field takes the type's default (machines, days, maintenance); the license's own
// entitlements add to the type's; and a change the owner should know of is mailed to them (mails.ts).
import type { AppContext } from '../../context.ts';
import { getLicenseTypeById, parseEntitlements, storedEntitlements } from '../license-types/index.ts';
import { getLicenseWithType, insertLicense, syncLicenseFlags, updateLicense } from './queries.ts';
import { getUserById } from '../../db/queries/users.ts';
import type { License, User } from '../../db/schema.ts';
import { HttpError, type FieldErrors } from '../../http/errors.ts';
import { licenseKind, resolveLicenseDates } from './license-dates.ts';
import { defaultMaintenanceUntil } from './license-terms.ts';
import { toAdminUser } from '../../auth/public-user.ts';
import { describeLicenseChange, recordLicenseEvent, type LicenseChangeEvent, type LicenseFacts } from './events.ts';
import { sendLicenseChangedMail, sendLicenseGrantedMail } from './mails.ts';
import { presentLicense, type LicenseViewer } from './present.ts';
import { announceLicenseChanges } from './webhooks.ts';

export const LICENSE_MESSAGES = {
  saved: 'License saved.',
  granted: 'License granted; the user was e-mailed.',
  grantedMailFailed: 'License granted, but the e-mail to the user could not be sent.',
  deleted: 'License deleted.',
  notFound: 'License not found.',
  typeInvalid: 'The selected license type is invalid.',
  userInvalid: 'The selected user is invalid.',
  userFixed: 'A license cannot be moved to another user.',
  trialNeedsDays: 'A trial license needs an expiry of at least 1 day.',
} as const;

type Ctx = Pick<AppContext, 'db' | 'now' | 'config' | 'mailer' | 'log' | 'wake'>;

export interface LicenseWrite {
  license: License;
  user: User;
  typeName: string;
  granted: boolean;
  /** What the save changed, as its events: the owner is mailed about some of them (mails.ts). */
  changes: LicenseChangeEvent[];
}

/** What the admin may set on a license; left out, a new license takes its type's default. */
export interface LicenseTermsInput {
  active?: 0 | 1;
  expire?: number;
  max_machines?: number;
  suspended?: 0 | 1;
  /** The license's own entitlements, added to its type's. */
  entitlements?: string[];
  /** ISO time; null: no limit; left out: the grant date plus the type's maintenance_days. */
  maintenance_until?: string | null;
}

export interface NewLicenseInput extends LicenseTermsInput {
  license_type_id: number;
  user_id: number;
}

export interface LicenseUpdateInput extends LicenseTermsInput {
  license_type_id?: number;
  user_id?: number;
}

export function factsOf(license: License, typeName: string): LicenseFacts {
  const { active, expire, activated_at, expire_date, max_machines, suspended, maintenance_until } = license;
  return {
    type: typeName,
    active,
    expire,
    activated_at,
    expire_date,
    max_machines,
    suspended,
    entitlements: parseEntitlements(license.extra_entitlements),
    maintenance_until,
  };
}

/** Type and user must exist; a trial needs days. All problems are reported together. */
export function checkLicenseReferences(ctx: Ctx, typeId: number, userId: number, expire: number | undefined) {
  const type = getLicenseTypeById(ctx.db, typeId);
  const user = getUserById(ctx.db, userId);
  const errors: FieldErrors = {};
  if (!type) errors.license_type_id = [LICENSE_MESSAGES.typeInvalid];
  if (!user) errors.user_id = [LICENSE_MESSAGES.userInvalid];
  if (type && licenseKind(type.name) === 'trial' && (expire ?? type.duration_days) < 1) errors.expire = [LICENSE_MESSAGES.trialNeedsDays];
  if (!type || !user || Object.keys(errors).length > 0) throw new HttpError(422, Object.values(errors)[0]?.[0] ?? LICENSE_MESSAGES.typeInvalid, errors);
  return { type, user };
}

/** Every change an admin's save made, as license events, inside its transaction; answers them. */
export function recordLicenseChanges(ctx: Ctx, adminId: number | null, before: LicenseFacts | null, license: License, typeName: string): LicenseChangeEvent[] {
  const at = new Date(ctx.now()).toISOString();
  const events = describeLicenseChange(before, factsOf(license, typeName));
  for (const event of events) recordLicenseEvent(ctx.db, { licenseId: license.id, actorKind: 'admin', actorUserId: adminId, ...event, at });
  announceLicenseChanges(ctx, license.id, events);
  return events;
}

/** Stores a new license as the admin asked. Must run inside the caller's writeTransaction. */
export function storeLicenseAsAdmin(ctx: Ctx, adminId: number | null, input: NewLicenseInput): LicenseWrite {
  const nowIso = new Date(ctx.now()).toISOString();
  const { type } = checkLicenseReferences(ctx, input.license_type_id, input.user_id, input.expire);
  const { dates, activatedNow } = resolveLicenseDates({
    kind: licenseKind(type.name),
    active: input.active === undefined ? undefined : input.active === 1,
    // Left out: the type's duration (issue 24, item 1: one place for a type's defaults).
    expireDays: input.expire ?? type.duration_days,
    previous: null,
    now: ctx.now(),
  });
  const license = insertLicense(ctx.db, {
    license_type_id: type.id,
    user_id: input.user_id,
    ...dates,
    max_machines: input.max_machines ?? type.max_machines,
    suspended: input.suspended ?? 0,
    extra_entitlements: storedEntitlements(input.entitlements ?? []),
    maintenance_until: input.maintenance_until !== undefined ? input.maintenance_until : defaultMaintenanceUntil(dates.activated_at, type.maintenance_days),
    created_at: nowIso,
    updated_at: nowIso,
  });
  const user = syncLicenseFlags(ctx.db, input.user_id, { clearRequest: activatedNow, by: adminId }, nowIso);
  if (!user) throw new Error(`user ${input.user_id} vanished inside the transaction`);
  const changes = recordLicenseChanges(ctx, adminId, null, license, type.name);
  return { license, user, typeName: type.name, granted: activatedNow, changes };
}

/** Updates a license as the admin asked; fields left out keep their values. Must run inside the caller's writeTransaction. */
export function updateLicenseAsAdmin(ctx: Ctx, adminId: number | null, id: number, input: LicenseUpdateInput): LicenseWrite {
  const nowIso = new Date(ctx.now()).toISOString();
  const stored = getLicenseWithType(ctx.db, id);
  if (!stored) throw new HttpError(404, LICENSE_MESSAGES.notFound);
  if (input.user_id !== undefined && input.user_id !== stored.user_id)
    throw new HttpError(422, LICENSE_MESSAGES.userFixed, { user_id: [LICENSE_MESSAGES.userFixed] });
  const expire = input.expire ?? stored.expire;
  const { type } = checkLicenseReferences(ctx, input.license_type_id ?? stored.license_type_id, stored.user_id, expire);
  const { dates, activatedNow } = resolveLicenseDates({
    kind: licenseKind(type.name),
    active: input.active === undefined ? undefined : input.active === 1,
    expireDays: expire,
    previous: { active: stored.active === 1 ? 1 : 0, activated_at: stored.activated_at },
    now: ctx.now(),
  });
  // Left out, the machine limit and the suspension keep their stored values (a type change included).
  // A limit below the machines already activated keeps them; the software is then told TOO_MANY_MACHINES.
  // Maintenance left out is kept, but a grant (inactive → active) starts the type's window from now.
  const maintenance =
    input.maintenance_until !== undefined
      ? input.maintenance_until
      : activatedNow
        ? defaultMaintenanceUntil(dates.activated_at, type.maintenance_days)
        : stored.maintenance_until;
  const license = updateLicense(ctx.db, id, {
    license_type_id: type.id,
    ...dates,
    max_machines: input.max_machines ?? stored.max_machines,
    suspended: input.suspended ?? stored.suspended,
    ...(input.entitlements !== undefined ? { extra_entitlements: storedEntitlements(input.entitlements) } : {}),
    maintenance_until: maintenance,
    updated_at: nowIso,
  });
  const user = syncLicenseFlags(ctx.db, stored.user_id, { clearRequest: activatedNow, by: adminId }, nowIso);
  if (!license || !user) throw new Error(`license ${id} or its user vanished inside the transaction`);
  const changes = recordLicenseChanges(ctx, adminId, factsOf(stored, stored.license_type.name), license, type.name);
  return { license, user, typeName: type.name, granted: activatedNow, changes };
}

/**
 * After the write: on a grant, mail the user the key; on a change the owner should know of (suspended,
 * unsuspended, extended, machine limit or entitlements changed), mail them what changed. The answer with
 * the license, the user's new flags and the outcome.
 */
export async function answerLicenseWrite(ctx: Ctx, write: LicenseWrite, viewer: LicenseViewer) {
  let mailSent: boolean | null = null;
  const { license } = write;
  if (write.granted) {
    mailSent = await sendLicenseGrantedMail(ctx, write.user, {
      key: license.key,
      typeName: write.typeName,
      expireDate: license.expire_date,
      maxMachines: license.max_machines,
    });
  } else {
    const sent = await sendLicenseChangedMail(ctx, write.user, { typeName: write.typeName, key: license.key }, write.changes);
    if (sent !== null) mailSent = sent;
  }
  const view = getLicenseWithType(ctx.db, license.id);
  if (!view) throw new Error(`license ${license.id} vanished after its write`);
  return {
    message: write.granted ? (mailSent ? LICENSE_MESSAGES.granted : LICENSE_MESSAGES.grantedMailFailed) : LICENSE_MESSAGES.saved,
    license: presentLicense(ctx.db, view, { viewer, now: ctx.now() }),
    user: toAdminUser(write.user),
    granted: write.granted,
    mail_sent: mailSent,
  };
}
