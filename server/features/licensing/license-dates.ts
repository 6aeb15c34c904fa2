// What a license's dates become when an admin stores or updates it (docs/product/admin.md#admin-screen, docs/product/data-model.md; issue 7, item 2).
// Pure: the routes hand in the stored state, the request and the clock, and write back what comes out.
//
// Decisions (docs/decisions/0011-admin-console.md):
// - A trial license is active from the moment it is stored: the admin form hides its Active checkbox, so
//   the server decides, and granting a trial *is* activating it. Its expiry ends it; deleting ends it early.
// - A perpetual license never expires: `expire` is stored as 0 and `expire_date` stays null whatever was
//   sent (the form hides the field). Its Active checkbox decides whether it is active.
// - Any other type (an edition an admin made, issue 24) behaves like a perpetual one for Active and like a
//   trial for expiry, except that 0 days means it never expires (its type's duration_days 0).
// - An inactive license has no activation and no expiry date (the dashboard shows N/A); activating it
//   again starts from that moment. Changing the days of an active license recomputes the expiry from its
//   original activation, so "extend the trial by 30 days" does what it says.
// Times are UTC ISO strings and days are 24-hour days on UTC: no DST, so one day is always 86,400,000 ms.

export const DAY_MS = 24 * 60 * 60 * 1000;

export type LicenseKind = 'trial' | 'perpetual' | 'other';

export function licenseKind(typeName: string): LicenseKind {
  const name = typeName.trim().toLowerCase();
  return name === 'trial' || name === 'perpetual' ? name : 'other';
}

export interface LicenseDates {
  active: 0 | 1;
  /** Days from activation; always 0 for perpetual licenses. */
  expire: number;
  activated_at: string | null;
  expire_date: string | null;
}

export interface LicenseDatesInput {
  kind: LicenseKind;
  /** What the form sent; ignored for trials (always active). Undefined keeps the stored value (or 0 when new). */
  active: boolean | undefined;
  /** Whole days ≥ 0. */
  expireDays: number;
  /** The stored license when updating; null when creating. */
  previous: Pick<LicenseDates, 'active' | 'activated_at'> | null;
  /** Milliseconds since the epoch. */
  now: number;
}

export interface LicenseDatesResult {
  dates: LicenseDates;
  /** True when this change activates the license (created active, or inactive → active): a grant. */
  activatedNow: boolean;
}

/** An ISO time `days` whole days later. */
export function addDays(iso: string, days: number): string {
  const start = Date.parse(iso);
  if (Number.isNaN(start)) throw new RangeError(`not a date: ${iso}`);
  return new Date(start + days * DAY_MS).toISOString();
}

export function resolveLicenseDates(input: LicenseDatesInput): LicenseDatesResult {
  const { kind, previous } = input;
  const wasActive = previous?.active === 1;
  const active = kind === 'trial' ? true : (input.active ?? wasActive);
  if (!active) return { dates: { active: 0, expire: kind === 'perpetual' ? 0 : input.expireDays, activated_at: null, expire_date: null }, activatedNow: false };

  const activatedNow = !wasActive;
  // A license active before this change keeps its activation time; a damaged (null) one restarts now.
  const activatedAt = (!activatedNow && previous?.activated_at) || new Date(input.now).toISOString();
  if (kind === 'perpetual') return { dates: { active: 1, expire: 0, activated_at: activatedAt, expire_date: null }, activatedNow };
  if (kind === 'other' && input.expireDays === 0) return { dates: { active: 1, expire: 0, activated_at: activatedAt, expire_date: null }, activatedNow };
  return { dates: { active: 1, expire: input.expireDays, activated_at: activatedAt, expire_date: addDays(activatedAt, input.expireDays) }, activatedNow };
}
