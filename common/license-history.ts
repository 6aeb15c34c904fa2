// A license's history in words (issue 24, item 5), shared by the owner's dashboard card, the admin's History
// and the mail the owner gets when an admin changes their license, so all three say the same thing with
// the same dates. The server records each change as an action with a JSON detail
// (server/features/licensing/events.ts, activation.ts, license-reminders); this turns one into a sentence.
// Pure and browser-safe: no dates from the machine's locale or time zone, every time is UTC.

export interface LicenseEventLike {
  action: string;
  actor_kind: string;
  /** The acting user's name: the admins see it, the owner does not (the kind says who acted). */
  actor_name?: string | null;
  detail: Record<string, unknown>;
  created_at: string;
}

/** "2026-03-01": a license's dates (expiry, maintenance) in words. */
export function historyDate(value: unknown): string {
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return 'none';
  return new Date(value).toISOString().slice(0, 10);
}

/** "2026-03-01 14:05 UTC": when an event happened. */
export function historyTime(iso: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const text = new Date(time).toISOString();
  return `${text.slice(0, 10)} ${text.slice(11, 16)} UTC`;
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const isChange = (value: unknown): value is { from: unknown; to: unknown } => isRecord(value) && 'from' in value && 'to' in value;
const codes = (value: unknown): string[] => (Array.isArray(value) ? value.filter((code): code is string => typeof code === 'string') : []);
const machines = (count: unknown) => `${String(count)} ${count === 1 ? 'machine' : 'machines'}`;

function machineName(detail: Record<string, unknown>): string {
  if (typeof detail.name === 'string' && detail.name) return detail.name;
  if (typeof detail.fingerprint === 'string') return `machine ${detail.fingerprint.slice(0, 12)}`;
  return 'a machine';
}

function entitlementChange(from: unknown, to: unknown): string {
  const before = new Set(codes(from));
  const after = new Set(codes(to));
  const added = [...after].filter((code) => !before.has(code));
  const removed = [...before].filter((code) => !after.has(code));
  const parts = [added.length > 0 ? `added ${added.join(', ')}` : '', removed.length > 0 ? `removed ${removed.join(', ')}` : ''].filter(Boolean);
  return `Features ${parts.join('; ') || 'unchanged'}`;
}

/** One changed field of an `updated` event, in words. */
export function changeText(field: string, change: { from: unknown; to: unknown }): string {
  const { from, to } = change;
  switch (field) {
    case 'max_machines':
      return `Machine limit changed from ${String(from)} to ${String(to)}`;
    case 'entitlements':
      return entitlementChange(from, to);
    case 'maintenance_until':
      return to === null
        ? 'Updates included without a time limit'
        : `Updates included until ${historyDate(to)} (was ${from === null ? 'no limit' : historyDate(from)})`;
    case 'expire_date':
      return to === null ? 'No longer expires' : `Expiry set to ${historyDate(to)}${from === null ? '' : ` (was ${historyDate(from)})`}`;
    case 'active':
      return to === 1 ? 'Activated' : 'Switched off';
    case 'type':
      return `Type changed from ${String(from)} to ${String(to)}`;
    case 'expire':
      return `Duration changed from ${String(from)} to ${String(to)} days`;
    case 'activated_at':
      return `Activation date set to ${historyDate(to)}`;
    default:
      return `${field.replaceAll('_', ' ')} changed from ${String(from ?? 'none')} to ${String(to ?? 'none')}`;
  }
}

/**
 * The event as one sentence: "Granted: Pro, 3 machines, expires 2026-02-01", "Extended until 2026-03-01
 * (was 2026-02-01)", "Machine limit changed from 3 to 5", "Lab PC activated", "Reminder sent: expires in 7 days".
 */
export function licenseEventText(event: Pick<LicenseEventLike, 'action' | 'detail'>): string {
  const { detail } = event;
  switch (event.action) {
    case 'created': {
      const parts = [String(detail.type ?? 'license'), machines(detail.max_machines)];
      parts.push(detail.expire_date ? `expires ${historyDate(detail.expire_date)}` : 'never expires');
      if (detail.active !== 1) return `Created, not active yet: ${parts.slice(0, 2).join(', ')}`;
      return `${detail.auto_granted ? 'Trial granted on request' : 'Granted'}: ${parts.join(', ')}`;
    }
    case 'updated': {
      const changes = isRecord(detail.changes) ? detail.changes : {};
      const lines = Object.entries(changes)
        .filter(([field]) => field !== 'activated_at' && field !== 'expire')
        .flatMap(([field, change]) => (isChange(change) ? [changeText(field, change)] : []));
      return lines.length > 0 ? lines.join('; ') : 'Updated';
    }
    case 'suspended':
      return 'Suspended: the software refuses it until it is lifted';
    case 'unsuspended':
      return 'Suspension lifted';
    case 'extended': {
      const dates = isRecord(detail.expire_date) ? detail.expire_date : {};
      return `Extended until ${historyDate(dates.to)} (was ${historyDate(dates.from)})`;
    }
    case 'machine_activated':
      return `${machineName(detail)} activated`;
    case 'machine_deactivated':
      return `${machineName(detail)} deactivated`;
    case 'lease_ended':
      return `Lease of ${machineName(detail)} ended`;
    case 'machine_checked_in':
      return `${machineName(detail)} checked in`;
    case 'reminder_sent':
      return reminderText(detail);
    case 'note':
      // A note the shop or CRM sent with a grant through the integrations' API (docs/integrations.md).
      return `Note: ${typeof detail.note === 'string' ? detail.note : ''}`;
    default:
      return event.action.charAt(0).toUpperCase() + event.action.slice(1).replaceAll('_', ' ');
  }
}

function reminderText(detail: Record<string, unknown>): string {
  if (detail.kind === 'expired') return 'Reminder sent: the license has expired';
  if (detail.kind === 'expires_in_1_day') return 'Reminder sent: expires in 1 day';
  if (detail.kind === 'expires_in_7_days') return 'Reminder sent: expires in 7 days';
  return 'Reminder sent';
}

/** Who did it: "by Boss (admin)" for the admins, "by an administrator", "by you", "by the software", "automatically". */
export function licenseEventActor(event: Pick<LicenseEventLike, 'actor_kind' | 'actor_name'>): string {
  if (event.actor_kind === 'software') return 'by the software';
  if (event.actor_kind === 'system') return 'automatically';
  if (event.actor_name) return `by ${event.actor_name} (${event.actor_kind})`;
  if (event.actor_kind === 'admin') return 'by an administrator';
  if (event.actor_kind === 'user') return 'by the owner';
  return `by ${event.actor_kind}`;
}
