// Trials granted at once (issue 12, item 7): with the admin's setting "grant trials automatically to verified
// users" on (off by default: docs/product/accounts.md#license-request has the admin grant them), Request
// License by a verified user who has no license yet creates an active trial instead of a request.
// One per user: a user with any license (active, inactive or expired) goes through the admin as before.
// Concurrency: the caller runs this inside writeTransaction (BEGIN IMMEDIATE), so two requests, in one
// process or several, cannot both see "no license": the second waits for the first's commit, then sees it.
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { insertLicense } from './queries.ts';
import { licenses, type License, type User } from '../../db/schema.ts';
import { BUILT_IN_DEFAULTS, findLicenseTypeByName } from '../license-types/index.ts';
import { defaultMaintenanceUntil } from './license-terms.ts';
import { resolveLicenseDates } from './license-dates.ts';
import { recordLicenseEvent } from './events.ts';
import { getLicensingSettings } from './settings.ts';
import { syncLicenseFlags } from './queries.ts';
import { announceLicenseChanges } from './webhooks.ts';

/** The days the trial type starts with (server/features/license-types/ensure-types.ts); its duration_days rules. */
export const AUTO_GRANT_TRIAL_DAYS = BUILT_IN_DEFAULTS.trial.duration_days;

export interface AutoGrantedTrial {
  license: License;
  user: User;
  typeName: string;
}

function userHasAnyLicense(db: Db, userId: number): boolean {
  return db.select({ id: licenses.id }).from(licenses).where(eq(licenses.user_id, userId)).limit(1).get() !== undefined;
}

/**
 * Grants the trial when the setting, the user and their licenses allow it; null otherwise (the caller then
 * records a request as before). Must run inside the caller's write transaction.
 */
export function grantTrialAutomatically(ctx: Pick<AppContext, 'db' | 'now' | 'wake'>, user: User): AutoGrantedTrial | null {
  const settings = getLicensingSettings(ctx.db);
  if (settings.auto_grant_trials !== 1 || !user.email_verified_at || user.is_banned) return null;
  if (userHasAnyLicense(ctx.db, user.id)) return null;
  const type = findLicenseTypeByName(ctx.db, 'trial');
  if (!type) return null;
  const now = ctx.now();
  const at = new Date(now).toISOString();
  // The trial type's own defaults (issue 24: one place for a type's defaults; 30 days unless an admin changed it).
  const { dates } = resolveLicenseDates({ kind: 'trial', active: true, expireDays: Math.max(1, type.duration_days), previous: null, now });
  const license = insertLicense(ctx.db, {
    license_type_id: type.id,
    user_id: user.id,
    ...dates,
    max_machines: type.max_machines,
    maintenance_until: defaultMaintenanceUntil(dates.activated_at, type.maintenance_days),
    suspended: 0,
    created_at: at,
    updated_at: at,
  });
  const updated = syncLicenseFlags(ctx.db, user.id, { clearRequest: true }, at);
  if (!updated) throw new Error(`user ${user.id} vanished inside the transaction`);
  const { active, expire, activated_at, expire_date, max_machines, suspended } = license;
  recordLicenseEvent(ctx.db, {
    licenseId: license.id,
    actorKind: 'system',
    actorUserId: null,
    action: 'created',
    detail: { type: type.name, active, expire, activated_at, expire_date, max_machines, suspended, auto_granted: true },
    at,
  });
  announceLicenseChanges(ctx, license.id, [{ action: 'created' }]);
  return { license, user: updated, typeName: type.name };
}
