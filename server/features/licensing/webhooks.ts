// What licensing tells the integrations (docs/integrations.md#events): each call runs inside the transaction
// of the change, so the event exists exactly when the change was committed. The license object is the one the
// admin screen and GET /api/v1/licenses answer.
import type { AppContext } from '../../context.ts';
import type { LicenseMachine } from './queries.ts';
import { recordWebhookEvent, type WebhookEvent } from '../webhooks/index.ts';
import type { LicenseChangeEvent } from './events.ts';
import { presentLicense, presentMachine } from './present.ts';
import { getLicenseWithType, listNewlyExpiredLicenseIds } from './queries.ts';
import { recordLicenseEvent } from './events.ts';
import { writeTransaction } from '../../db/client.ts';

type Ctx = Pick<AppContext, 'db' | 'now' | 'wake'>;

/** The license as the integrations receive it (an admin's view: key and machines included). */
function licenseData(ctx: Ctx, licenseId: number) {
  const license = getLicenseWithType(ctx.db, licenseId);
  return license ? presentLicense(ctx.db, license, { viewer: { id: 0, role: 'admin' }, now: ctx.now() }) : { id: licenseId };
}

/** One webhook per kind of change of a save: created, suspended, unsuspended, or else (extended too) updated. */
export function announceLicenseChanges(ctx: Ctx, licenseId: number, changes: readonly Pick<LicenseChangeEvent, 'action'>[]): void {
  const kinds = new Set<WebhookEvent>();
  for (const change of changes) {
    if (change.action === 'created') kinds.add('license.created');
    else if (change.action === 'suspended') kinds.add('license.suspended');
    else if (change.action === 'unsuspended') kinds.add('license.unsuspended');
    else kinds.add('license.updated');
  }
  if (kinds.has('license.created')) kinds.delete('license.updated');
  if (kinds.size === 0) return;
  const data = licenseData(ctx, licenseId);
  for (const kind of kinds) recordWebhookEvent(ctx, kind, data, ctx.now());
}

export function announceMachine(ctx: Ctx, licenseId: number, action: 'machine_activated' | 'machine_deactivated', machine: LicenseMachine): void {
  recordWebhookEvent(
    ctx,
    action === 'machine_activated' ? 'machine.activated' : 'machine.deactivated',
    { license_id: licenseId, machine: presentMachine(machine) },
    ctx.now(),
  );
}

/**
 * Records each license whose end has passed since the last look (an `expired` event in its history and
 * license.expired for the integrations), a batch at a time; run by the reminders job every minute.
 */
export function announceExpiredLicenses(ctx: Ctx, batch = 100): number {
  const nowIso = new Date(ctx.now()).toISOString();
  let announced = 0;
  for (const id of listNewlyExpiredLicenseIds(ctx.db, nowIso, batch)) {
    writeTransaction(ctx.db, () => {
      const license = getLicenseWithType(ctx.db, id);
      if (!license?.expire_date) return;
      recordLicenseEvent(ctx.db, {
        licenseId: id,
        actorKind: 'system',
        actorUserId: null,
        action: 'expired',
        detail: { expire_date: license.expire_date },
        at: nowIso,
      });
      recordWebhookEvent(ctx, 'license.expired', licenseData(ctx, id), ctx.now());
      announced += 1;
    });
  }
  return announced;
}
