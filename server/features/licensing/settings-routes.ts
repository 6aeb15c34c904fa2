// GET/PUT /api/admin/licensing-settings (issue 12, items 5 and 7; docs/admin-api.md#licensing-settings): the
// machine limits new licenses get by type and whether Request License grants a trial at once. Admin only.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { writeTransaction } from '../../db/client.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { optionalFlagField } from '../../http/fields.ts';
import { validate } from '../../http/validate.ts';
import { getLicensingSettings, machineLimitField, saveLicensingSettings } from './settings.ts';

export const LICENSING_SETTINGS_MESSAGES = { saved: 'Licensing settings saved.' } as const;

// Fields left out keep their values, as in the license update; unknown keys are dropped.
const settingsSchema = z.object({
  trial_max_machines: machineLimitField('trial max machines'),
  perpetual_max_machines: machineLimitField('perpetual max machines'),
  auto_grant_trials: optionalFlagField('auto grant trials'),
});

export function licensingSettingsRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .get('/', requireAdmin, (c) => c.json(getLicensingSettings(ctx.db)))
    .put('/', requireAdmin, smallJsonBody(), validate('json', settingsSchema), (c) => {
      const changes = c.req.valid('json');
      // One transaction: another admin's save never interleaves field by field.
      const settings = writeTransaction(ctx.db, () => {
        saveLicensingSettings(ctx.db, changes);
        return getLicensingSettings(ctx.db);
      });
      ctx.log.info(`Licensing settings saved by user ${c.get('user')?.id ?? '?'}: ${JSON.stringify(settings)}`);
      return c.json({ message: LICENSING_SETTINGS_MESSAGES.saved, ...settings });
    });
}
