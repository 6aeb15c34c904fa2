// The types every database has, and the move of the per-type machine limits out of the licensing settings
// (issue 24, item 1: "one place for a type's defaults"). Runs at every start (server/demo/seed.ts), in one
// write transaction; after the first run only the marker is read.
//
// Until issue 24 the Licensing Settings dialog kept `licensing.trial_max_machines` and
// `licensing.perpetual_max_machines` (defaults 1 and 3) and a trial's 30 days lived in the admin form. The
// migration that added the type columns gave every existing type the column defaults; here the saved
// settings (or those defaults) become the trial's and perpetual's own values, once, and the settings go.
import { writeTransaction, type Db } from '../../db/client.ts';
import { deleteSetting, getSetting, setSetting } from '../../db/queries/settings.ts';
import { insertLicenseTypeIfMissing, updateLicenseTypeByName } from './queries.ts';

export const REQUIRED_LICENSE_TYPES = ['trial', 'perpetual'] as const;

/** What trial and perpetual gave before they were editable: 1 machine for 30 days, 3 machines for ever. */
export const BUILT_IN_DEFAULTS = {
  trial: { max_machines: 1, duration_days: 30 },
  perpetual: { max_machines: 3, duration_days: 0 },
} as const;

const MIGRATED_MARKER = 'licensing.types_hold_defaults';
const OLD_SETTINGS = { trial: 'licensing.trial_max_machines', perpetual: 'licensing.perpetual_max_machines' } as const;

function savedMachineLimit(db: Db, key: string): number | undefined {
  const value = Number(getSetting(db, key));
  return Number.isInteger(value) && value >= 1 && value <= 1000 ? value : undefined;
}

export function ensureLicenseTypes(db: Db): void {
  if (getSetting(db, MIGRATED_MARKER)) {
    for (const name of REQUIRED_LICENSE_TYPES) insertLicenseTypeIfMissing(db, { name, ...BUILT_IN_DEFAULTS[name] });
    return;
  }
  writeTransaction(db, () => {
    for (const name of REQUIRED_LICENSE_TYPES) {
      const defaults = { ...BUILT_IN_DEFAULTS[name], max_machines: savedMachineLimit(db, OLD_SETTINGS[name]) ?? BUILT_IN_DEFAULTS[name].max_machines };
      if (!insertLicenseTypeIfMissing(db, { name, ...defaults })) updateLicenseTypeByName(db, name, defaults);
      deleteSetting(db, OLD_SETTINGS[name]);
    }
    setSetting(db, MIGRATED_MARKER, new Date().toISOString());
  });
}
