// The admin's licensing settings (issue 12, item 7), kept in the settings table: whether Request License
// grants a trial at once. Off until an admin saves, because the admin grants trials
// (docs/product/accounts.md#license-request). The per-type machine limits that were here moved to the
// license types themselves (issue 24, item 1; server/features/license-types/ensure-types.ts moved the values).
import type { Db } from '../../db/client.ts';
import { getSetting, setSetting } from '../../db/queries/settings.ts';
import { wholeNumberField } from '../../http/fields.ts';
import { MAX_MACHINES_LIMIT } from '../license-types/index.ts';

export interface LicensingSettings {
  /** 0/1 like every flag in answers (docs/admin-api.md#common-rules). */
  auto_grant_trials: 0 | 1;
}

export const LICENSING_DEFAULTS: LicensingSettings = { auto_grant_trials: 0 };

// Own prefix: the settings table also holds the server's secrets, which these functions never read.
const SETTING_KEYS: Record<keyof LicensingSettings, string> = {
  auto_grant_trials: 'licensing.auto_grant_trials',
};

export function getLicensingSettings(db: Db): LicensingSettings {
  // A hand-edited, damaged row reads as the default: it must not stop license writes.
  return { auto_grant_trials: getSetting(db, SETTING_KEYS.auto_grant_trials) === '1' ? 1 : 0 };
}

/** Writes the fields given (validated by the caller); call inside a write transaction when several change. */
export function saveLicensingSettings(db: Db, changes: Partial<LicensingSettings>): void {
  for (const field of Object.keys(SETTING_KEYS) as (keyof LicensingSettings)[]) {
    const value = changes[field];
    if (value !== undefined) setSetting(db, SETTING_KEYS[field], String(value));
  }
}

/** A machine limit: 1–1000, as a number or a string of digits (a form's input); '' or null mean not sent. */
export function machineLimitField(label: string) {
  return wholeNumberField(label, 1, MAX_MACHINES_LIMIT);
}
