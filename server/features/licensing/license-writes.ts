// An admin's license writes, shared by the license form (routes.ts, POST /api/license/store and PUT /update) and the inbox's
// Grant trial (server/features/inbox/routes.ts), so a grant from either place is the same grant: the same
// checks, dates, user flags, license events and "your license is active" mail (docs/product/admin.md#licenses).
import type { AppContext } from '../../context.ts';
import { getLicenseTypeById } from './queries.ts';
import { insertLicense } from './queries.ts';
import { getUserById } from '../../db/queries/users.ts';
import type { License, User } from '../../db/schema.ts';
import { HttpError, type FieldErrors } from '../../http/errors.ts';
import { licenseKind, resolveLicenseDates } from './license-dates.ts';
import { toAdminUser } from '../../auth/public-user.ts';
import { describeLicenseChange, recordLicenseEvent, type LicenseFacts } from './events.ts';
import { sendLicenseGrantedMail } from './mails.ts';
import { presentLicense, type LicenseViewer } from './present.ts';
import { defaultMaxMachines, getLicensingSettings } from './settings.ts';
import { syncLicenseFlags } from './queries.ts';

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

type Ctx = Pick<AppContext, 'db' | 'now' | 'config' | 'mailer' | 'log'>;

export interface LicenseWrite {
  license: License;
  user: User;
  typeName: string;
  granted: boolean;
}

export interface NewLicenseInput {
  license_type_id: number;
  user_id: number;
  active?: 0 | 1;
  expire?: number;
  max_machines?: number;
  suspended?: 0 | 1;
}

export function factsOf(license: License, typeName: string): LicenseFacts {
  const { active, expire, activated_at, expire_date, max_machines, suspended } = license;
  return { type: typeName, active, expire, activated_at, expire_date, max_machines, suspended };
}

/** Type and user must exist; a trial needs days. All problems are reported together. */
export function checkLicenseReferences(ctx: Ctx, typeId: number, userId: number, expire: number) {
  const type = getLicenseTypeById(ctx.db, typeId);
  const user = getUserById(ctx.db, userId);
  const errors: FieldErrors = {};
  if (!type) errors.license_type_id = [LICENSE_MESSAGES.typeInvalid];
  if (!user) errors.user_id = [LICENSE_MESSAGES.userInvalid];
  if (type && licenseKind(type.name) === 'trial' && expire < 1) errors.expire = [LICENSE_MESSAGES.trialNeedsDays];
  if (!type || !user || Object.keys(errors).length > 0) throw new HttpError(422, Object.values(errors)[0]?.[0] ?? LICENSE_MESSAGES.typeInvalid, errors);
  return { type, user };
}

/** Every change an admin's save made, as license events, inside its transaction. */
export function recordLicenseChanges(ctx: Ctx, adminId: number, before: LicenseFacts | null, license: License, typeName: string): void {
  const at = new Date(ctx.now()).toISOString();
  for (const event of describeLicenseChange(before, factsOf(license, typeName)))
    recordLicenseEvent(ctx.db, { licenseId: license.id, actorKind: 'admin', actorUserId: adminId, ...event, at });
}

/** Stores a new license as the admin asked. Must run inside the caller's writeTransaction. */
export function storeLicenseAsAdmin(ctx: Ctx, adminId: number, input: NewLicenseInput): LicenseWrite {
  const nowIso = new Date(ctx.now()).toISOString();
  const expire = input.expire ?? 0;
  const { type } = checkLicenseReferences(ctx, input.license_type_id, input.user_id, expire);
  const kind = licenseKind(type.name);
  const { dates, activatedNow } = resolveLicenseDates({
    kind,
    active: input.active === undefined ? undefined : input.active === 1,
    expireDays: expire,
    previous: null,
    now: ctx.now(),
  });
  const license = insertLicense(ctx.db, {
    license_type_id: type.id,
    user_id: input.user_id,
    ...dates,
    // Left out: the admin's setting for this type (issue 12, item 5).
    max_machines: input.max_machines ?? defaultMaxMachines(getLicensingSettings(ctx.db), kind),
    suspended: input.suspended ?? 0,
    created_at: nowIso,
    updated_at: nowIso,
  });
  const user = syncLicenseFlags(ctx.db, input.user_id, { clearRequest: activatedNow, by: adminId }, nowIso);
  if (!user) throw new Error(`user ${input.user_id} vanished inside the transaction`);
  recordLicenseChanges(ctx, adminId, null, license, type.name);
  return { license, user, typeName: type.name, granted: activatedNow };
}

/** After the write: on a grant, mail the user the key; the answer with the license, the user's new flags and the outcome. */
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
  }
  return {
    message: write.granted ? (mailSent ? LICENSE_MESSAGES.granted : LICENSE_MESSAGES.grantedMailFailed) : LICENSE_MESSAGES.saved,
    license: presentLicense(ctx.db, { ...license, license_type: { name: write.typeName } }, { viewer, now: ctx.now() }),
    user: toAdminUser(write.user),
    granted: write.granted,
    mail_sent: mailSent,
  };
}
