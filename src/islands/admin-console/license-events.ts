// License events in words for the admin's History (issue 12, items 5 and 7). The server records each change
// as an action with a JSON detail (server/features/licensing/events.ts, activation.ts): changes as
// `{ field: { from, to } }` (for `updated` under `changes`), machines as their id, fingerprint, name and
// platform. Pure, so it is tested without a browser.

const ACTIONS: Record<string, string> = {
  created: 'Created',
  updated: 'Updated',
  suspended: 'Suspended',
  unsuspended: 'Unsuspended',
  extended: 'Extended',
  machine_activated: 'Machine activated',
  machine_checked_in: 'Machine checked in',
  machine_deactivated: 'Machine deactivated',
  reminder_sent: 'Reminder sent',
};

/** 'machine_activated' → 'Machine activated'; an action this list does not know reads as itself, spaced. */
export function actionLabel(action: string): string {
  return ACTIONS[action] ?? action.charAt(0).toUpperCase() + action.slice(1).replaceAll('_', ' ');
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function isChange(value: unknown): value is { from: unknown; to: unknown } {
  return value !== null && typeof value === 'object' && 'from' in value && 'to' in value;
}

/** "expire: 14 → 45; expire_date: … → …", "name: Build Box; platform: linux". The machine id is left out. */
export function detailText(detail: Record<string, unknown>): string {
  const fields = isPlainObject(detail.changes) ? detail.changes : detail;
  return Object.entries(fields)
    .filter(([field]) => field !== 'machine_id')
    .map(([field, value]) => (isChange(value) ? `${field}: ${valueText(value.from)} → ${valueText(value.to)}` : `${field}: ${valueText(value)}`))
    .join('; ');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Who did it: the acting user's name, else what kind of actor ('software', 'system'). */
export function actorText(event: { actor_kind: string; actor_name: string | null }): string {
  if (event.actor_name) return `${event.actor_name} (${event.actor_kind})`;
  return event.actor_kind === 'software' ? 'the software' : event.actor_kind;
}
