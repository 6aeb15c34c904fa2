// The licensing part of the bench (issue 12): a license with one activated machine for POST
// /api/licensing/v1/validate to find (and /heartbeat to renew, issue 24), and the signing rate of license files (what every activation and
// check-in costs the server beside its database work).
import type { Db } from '../../server/db/client.ts';
import { insertLicense } from '../../server/features/licensing/queries.ts';
import type { Config } from '../../server/env.ts';
import { ensureLicenseTypes, listLicenseTypes } from '../../server/features/license-types/index.ts';
import { signLicenseFile } from '../../server/features/licensing/license-file.ts';
import { insertMachine } from '../../server/features/licensing/queries.ts';
import { loadKeyring } from '../../server/signing/signing-keys.ts';

export const VALIDATE_PATH = '/api/licensing/v1/validate';
/** A floating seat's keep-alive (issue 24): a write and a signed file per call. */
export const HEARTBEAT_PATH = '/api/licensing/v1/heartbeat';

export interface BenchLicense {
  key: string;
  fingerprint: string;
}

/** A perpetual license of `userId`'s for 3 machines, one of them activated. */
export function seedBenchLicense(db: Db, userId: number): BenchLicense {
  ensureLicenseTypes(db);
  const perpetual = listLicenseTypes(db).find((type) => type.name === 'perpetual');
  if (!perpetual) throw new Error('no perpetual license type');
  const at = new Date().toISOString();
  const license = insertLicense(db, { license_type_id: perpetual.id, user_id: userId, active: 1, expire: 0, activated_at: at, max_machines: 3 });
  const fingerprint = 'bench-machine-1';
  // A lease far ahead: heartbeats renew it (a lapsed one would answer HEARTBEAT_DEAD); validate ignores it.
  const lease = new Date(Date.now() + 365 * 86_400_000).toISOString();
  insertMachine(db, { license_id: license.id, fingerprint, name: 'Bench', platform: 'linux', activated_at: at, last_check_in_at: at, lease_expires_at: lease });
  if (!license.key) throw new Error('the bench license got no key');
  return { key: license.key, fingerprint };
}

/** Machine-bound files signed per second, in this process, with the data directory's signing key. */
export async function measureSigningRate(
  config: Pick<Config, 'dataDir' | 'licenseSigningKey'>,
  seconds: number,
): Promise<{ files: number; filesPerSec: number }> {
  const keyring = loadKeyring(config);
  const license = {
    id: 1,
    key: 'DCTL-AAAAA-BBBBB-CCCCC-DDDDD-EEEEE-FFFFF',
    type: 'perpetual',
    user_name: 'Bench User',
    company_name: 'Bench Ltd',
    email: 'bench@example.com',
    max_machines: 3,
    expire_date: null,
    entitlements: [],
    maintenance_until: null,
  };
  const started = performance.now();
  let files = 0;
  while (performance.now() - started < seconds * 1000) {
    const now = new Date();
    await signLicenseFile(keyring, {
      issuer: 'http://localhost:4321',
      license,
      machine: { fingerprint: `machine-${files}`, name: 'Bench', leaseExpiresAt: new Date(now.getTime() + 30 * 86_400_000) },
      now,
    });
    files += 1;
  }
  return { files, filesPerSec: files / ((performance.now() - started) / 1000) };
}
