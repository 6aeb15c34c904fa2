// License events (issue 12, item 5): every change of a license is recorded with who, what and when, and
// shown to the admins. Here: writing one, and turning an admin's store or update into events. The detail
// is JSON of what changed and never holds the key (keys stay out of logs and of anything shown besides
// the license itself; docs/licensing.md).
import type { Db } from '../../db/client.ts';
import { licenseEvents } from '../../db/schema.ts';

export type LicenseActorKind = 'admin' | 'user' | 'software' | 'system';

export interface LicenseEventInput {
  licenseId: number;
  actorKind: LicenseActorKind;
  /** The acting user (the admin, the owner); null for the software and the system. */
  actorUserId: number | null;
  action: string;
  detail?: Record<string, unknown>;
  /** ISO time from the injected clock. */
  at: string;
}

/** Writes one event; call inside the write transaction of the change it records. */
export function recordLicenseEvent(db: Db, event: LicenseEventInput): void {
  db.insert(licenseEvents)
    .values({
      license_id: event.licenseId,
      actor_kind: event.actorKind,
      actor_user_id: event.actorUserId,
      action: event.action,
      detail: JSON.stringify(event.detail ?? {}),
      created_at: event.at,
    })
    .run();
}

/** The fields of a license an admin changes, as events describe them (the type by name, not by id). */
export interface LicenseFacts {
  type: string;
  active: number;
  expire: number;
  activated_at: string | null;
  expire_date: string | null;
  max_machines: number;
  suspended: number;
  /** The license's own entitlements (beyond its type's), sorted. */
  entitlements: string[];
  maintenance_until: string | null;
}

export interface LicenseChangeEvent {
  action: 'created' | 'updated' | 'suspended' | 'unsuspended' | 'extended';
  detail: Record<string, unknown>;
}

const later = (from: string | null, to: string | null) => from !== null && to !== null && Date.parse(to) > Date.parse(from);

/**
 * What an admin's save did, as events: `created` with the new license's facts; for an update, `suspended` /
 * `unsuspended` when the suspension flips, `extended` when an expiry moves later (from → to), and one
 * `updated` with every other change as `{ field: { from, to } }`. Nothing when nothing changed.
 */
export function describeLicenseChange(before: LicenseFacts | null, after: LicenseFacts): LicenseChangeEvent[] {
  if (before === null) return [{ action: 'created', detail: { ...after } }];
  const events: LicenseChangeEvent[] = [];
  if (before.suspended !== after.suspended) events.push({ action: after.suspended === 1 ? 'suspended' : 'unsuspended', detail: {} });
  const extended = later(before.expire_date, after.expire_date);
  if (extended) {
    events.push({
      action: 'extended',
      detail: { expire: { from: before.expire, to: after.expire }, expire_date: { from: before.expire_date, to: after.expire_date } },
    });
  }
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of Object.keys(after) as (keyof LicenseFacts)[]) {
    if (field === 'suspended' || (extended && (field === 'expire' || field === 'expire_date'))) continue;
    // Entitlements are sorted lists: equal lists print alike.
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) changes[field] = { from: before[field], to: after[field] };
  }
  if (Object.keys(changes).length > 0) events.push({ action: 'updated', detail: { changes } });
  return events;
}
