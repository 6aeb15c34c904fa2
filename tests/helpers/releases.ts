// Helpers for the release gates (issue 25): licenses with entitlements and maintenance windows made straight
// in the database, and the holders of the download matrix (docs/updates.md).
import type { AppContext } from '../../server/context.ts';
import type { License } from '../../server/db/schema.ts';
import { insertLicenseType } from '../../server/features/license-types/queries.ts';
import { insertLicense } from '../../server/features/licensing/queries.ts';

let types = 0;

/** An active license of a new type carrying `entitlements`, with the given maintenance end (null: none). */
export function createLicenseDirect(
  ctx: Pick<AppContext, 'db' | 'now'>,
  userId: number,
  options: { entitlements?: string[]; maintenanceUntil?: string | null; active?: boolean; expireDate?: string | null } = {},
): License {
  const type = insertLicenseType(ctx.db, { name: `edition-${++types}-${userId}`, entitlements: JSON.stringify(options.entitlements ?? []) });
  const activatedAt = new Date(ctx.now() - 86_400_000).toISOString();
  return insertLicense(ctx.db, {
    license_type_id: type.id,
    user_id: userId,
    active: options.active === false ? 0 : 1,
    activated_at: activatedAt,
    expire_date: options.expireDate ?? null,
    maintenance_until: options.maintenanceUntil ?? null,
  });
}

/** ISO time `days` from the context's now (negative: before). */
export function daysFromNow(ctx: Pick<AppContext, 'now'>, days: number): string {
  return new Date(ctx.now() + days * 86_400_000).toISOString();
}
