// "Require two-factor for admins" (docs/product/accounts.md#two-factor-sign-in), kept in the settings table under
// its own prefix like the licensing settings (the table also holds the server's secrets, never read here).
// Until an admin saves it, it is on in production and off elsewhere, so development and tests start
// without an enrolment step while a real site is protected from its first day.
import type { Config } from '../env.ts';
import type { Db } from '../db/client.ts';
import { getSetting, setSetting } from '../db/queries/settings.ts';
import { userHasPasskey } from '../db/queries/passkeys.ts';

export interface SecuritySettings {
  /** 0/1 like every flag in answers (docs/admin-api.md#common-rules). */
  require_two_factor_for_admins: 0 | 1;
}

const REQUIRE_FOR_ADMINS_KEY = 'security.require_two_factor_for_admins';

export function getSecuritySettings(db: Db, config: Pick<Config, 'isProduction'>): SecuritySettings {
  const stored = getSetting(db, REQUIRE_FOR_ADMINS_KEY);
  // A missing or damaged value falls back to the default rather than stopping every admin request.
  if (stored === '1' || stored === '0') return { require_two_factor_for_admins: stored === '1' ? 1 : 0 };
  return { require_two_factor_for_admins: config.isProduction ? 1 : 0 };
}

export function saveSecuritySettings(db: Db, settings: SecuritySettings): void {
  setSetting(db, REQUIRE_FOR_ADMINS_KEY, String(settings.require_two_factor_for_admins));
}

/**
 * Whether the user has a second factor: TOTP on, or a passkey (user verification makes a passkey both factors
 * on its own, docs/decisions/0043-passkeys.md).
 */
export function hasSecondFactor(db: Db, user: { id: number; two_factor_enabled_at: string | null }): boolean {
  return user.two_factor_enabled_at !== null || userHasPasskey(db, user.id);
}

/** An admin who must turn two-factor on (or add a passkey) before using any admin tool. */
export function mustEnrollTwoFactor(
  db: Db,
  config: Pick<Config, 'isProduction'>,
  user: { id: number; role: string; two_factor_enabled_at: string | null },
): boolean {
  if (user.role !== 'admin' || user.two_factor_enabled_at !== null) return false;
  return getSecuritySettings(db, config).require_two_factor_for_admins === 1 && !userHasPasskey(db, user.id);
}
