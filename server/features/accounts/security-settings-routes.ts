// GET/PUT /api/admin/security-settings (docs/admin-api.md#security-settings): whether admins must use two-factor
// sign-in (docs/product/accounts.md#two-factor-sign-in). Admin only; an admin refused for want of two-factor
// cannot turn the requirement off either.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { writeTransaction } from '../../db/client.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { HttpError } from '../../http/errors.ts';
import { flagField } from '../../http/fields.ts';
import { validate } from '../../http/validate.ts';
import { getSecuritySettings, saveSecuritySettings } from './two-factor-settings.ts';

export const SECURITY_SETTINGS_MESSAGES = {
  saved: 'Security settings saved.',
  enrollFirst: 'Turn on two-factor sign-in for your own account first, or you would lock yourself out of the admin tools.',
} as const;

const settingsSchema = z.object({ require_two_factor_for_admins: flagField('require two factor for admins') });

export function securitySettingsRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .get('/', requireAdmin, (c) => c.json(getSecuritySettings(ctx.db, ctx.config)))
    .put('/', requireAdmin, smallJsonBody(), validate('json', settingsSchema), (c) => {
      const { require_two_factor_for_admins } = c.req.valid('json');
      if (require_two_factor_for_admins === 1 && !c.get('user')?.two_factor_enabled_at) {
        throw new HttpError(422, SECURITY_SETTINGS_MESSAGES.enrollFirst, { require_two_factor_for_admins: [SECURITY_SETTINGS_MESSAGES.enrollFirst] });
      }
      const settings = writeTransaction(ctx.db, () => {
        saveSecuritySettings(ctx.db, { require_two_factor_for_admins });
        return getSecuritySettings(ctx.db, ctx.config);
      });
      ctx.log.info(`Security settings saved by user ${c.get('user')?.id ?? '?'}: ${JSON.stringify(settings)}`);
      return c.json({ message: SECURITY_SETTINGS_MESSAGES.saved, ...settings });
    });
}
