// The admin's licensing settings (issue 12, items 5 and 7), kept in the settings table: how many machines a
// new trial or perpetual license allows, and whether Request License grants a trial at once. Defaults hold
// until an admin saves: trials on 1 machine, perpetual licenses on 3, and no automatic grants, because the
// admin grants trials (docs/product/accounts.md#license-request).
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { getSetting, setSetting } from '../../db/queries/settings.ts';
import type { LicenseKind } from './license-dates.ts';

export interface LicensingSettings {
  trial_max_machines: number;
  perpetual_max_machines: number;
  /** 0/1 like every flag in answers (docs/admin-api.md#common-rules). */
  auto_grant_trials: 0 | 1;
}

export const LICENSING_DEFAULTS: LicensingSettings = { trial_max_machines: 1, perpetual_max_machines: 3, auto_grant_trials: 0 };

export const MAX_MACHINES_LIMIT = 1000;

// Own prefix: the settings table also holds the server's secrets, which these functions never read.
const SETTING_KEYS: Record<keyof LicensingSettings, string> = {
  trial_max_machines: 'licensing.trial_max_machines',
  perpetual_max_machines: 'licensing.perpetual_max_machines',
  auto_grant_trials: 'licensing.auto_grant_trials',
};

/** A stored value, or the default when missing or damaged (a hand-edited row must not stop license writes). */
function storedNumber(db: Db, field: keyof LicensingSettings, valid: (value: number) => boolean): number {
  const text = getSetting(db, SETTING_KEYS[field]);
  const value = text === undefined ? Number.NaN : Number(text);
  return valid(value) ? value : LICENSING_DEFAULTS[field];
}

const isMachineLimit = (value: number) => Number.isInteger(value) && value >= 1 && value <= MAX_MACHINES_LIMIT;

export function getLicensingSettings(db: Db): LicensingSettings {
  return {
    trial_max_machines: storedNumber(db, 'trial_max_machines', isMachineLimit),
    perpetual_max_machines: storedNumber(db, 'perpetual_max_machines', isMachineLimit),
    auto_grant_trials: storedNumber(db, 'auto_grant_trials', (value) => value === 0 || value === 1) === 1 ? 1 : 0,
  };
}

/** Writes the fields given (validated by the caller); call inside a write transaction when several change. */
export function saveLicensingSettings(db: Db, changes: Partial<LicensingSettings>): void {
  for (const field of Object.keys(SETTING_KEYS) as (keyof LicensingSettings)[]) {
    const value = changes[field];
    if (value !== undefined) setSetting(db, SETTING_KEYS[field], String(value));
  }
}

/** A new license's machine limit when the admin leaves it out: the setting for its type, 1 for any other type. */
export function defaultMaxMachines(settings: LicensingSettings, kind: LicenseKind): number {
  if (kind === 'trial') return settings.trial_max_machines;
  if (kind === 'perpetual') return settings.perpetual_max_machines;
  return 1;
}

const wholeNumber = (label: string) => `The ${label} field must be a whole number.`;

/** A machine limit: 1–1000, as a number or a string of digits (a form's input); '' or null mean not sent. */
export function machineLimitField(label: string) {
  return z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    z
      .union([z.number(), z.string().trim().regex(/^\d+$/, wholeNumber(label))], { error: wholeNumber(label) })
      .transform(Number)
      .pipe(
        z
          .number()
          .int(wholeNumber(label))
          .min(1, `The ${label} field must be at least 1.`)
          .max(MAX_MACHINES_LIMIT, `The ${label} field must not be greater than ${MAX_MACHINES_LIMIT}.`),
      )
      .optional(),
  );
}
