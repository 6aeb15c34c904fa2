// Licenses for the admin screen (docs/product/admin.md#admin-screen, docs/product/api.md#admin; issue 7, item 2), mounted at /api/license.
// The date rules live in server/features/licensing/license-dates.ts; here: validation, the write transaction, the
// user's license flags, the license events, and the "your license is active" mail with the key on a grant.
// Issue 12 adds the machine limit, suspension, and answers in the license object of
// server/features/licensing/present.ts (docs/admin-api.md#the-license-object-license). Issue 24 adds the
// per-license entitlements and maintenance window, a type's defaults (license-types feature), and the mail
// the owner gets when an admin changes what the license allows (mails.ts).
//
// GET/PUT /api/admin/licensing-settings (issue 12, item 7; docs/admin-api.md#licensing-settings): whether
// Request License grants a trial at once. Admin only.
//
// The software's API is api-routes.ts, the machines and history from the browser machine-routes.ts.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin, guardedUser } from '../../auth/guards.ts';
import { writeTransaction } from '../../db/client.ts';
import { deleteLicense, listAllLicenses, syncLicenseFlags } from './queries.ts';
import { listAllUsers } from '../../db/queries/users.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, HttpError } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { idField, optionalFlagField, optionalIdField, parseId } from '../../http/fields.ts';
import { answerLicenseWrite, LICENSE_MESSAGES, storeLicenseAsAdmin, updateLicenseAsAdmin, type LicenseWrite } from './license-writes.ts';
import { toAdminUser } from '../../auth/public-user.ts';
import { presentLicenses, type LicenseViewer } from './present.ts';
import { machineLimitField, getLicensingSettings, saveLicensingSettings } from './settings.ts';
import { entitlementsField, listLicenseTypes, presentLicenseType } from '../license-types/index.ts';
import { LICENSING_PREFIX, licensingApiRoutes } from './api-routes.ts';
import { adminMachineRoutes, ownerMachineRoutes } from './machine-routes.ts';

export { LICENSE_MESSAGES };

/** Longer than any license anyone would grant; keeps date arithmetic far from overflow. */
export const MAX_EXPIRE_DAYS = 36_500;

/** Empty form values ('' or null) mean "not sent". */
const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

const expireField = z.preprocess(
  blankToUndefined,
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/, 'The expire field must be a whole number of days.')], {
      error: 'The expire field must be a whole number of days.',
    })
    .transform(Number)
    .pipe(
      z
        .number()
        .int('The expire field must be a whole number of days.')
        .min(0, 'The expire field must be at least 0.')
        .max(MAX_EXPIRE_DAYS, `The expire field must not be greater than ${MAX_EXPIRE_DAYS}.`),
    ),
);

const MAINTENANCE_MESSAGE = 'The maintenance until field must be a date (YYYY-MM-DD or an ISO time), or null for no limit.';

/**
 * The end of a license's maintenance: a date (its end of day, UTC: updates of that day are included) or an
 * ISO time; null for no limit; left out or '' for the default (the grant date plus the type's days).
 */
const maintenanceField = z
  .union([z.string().trim(), z.null()], { error: MAINTENANCE_MESSAGE })
  .optional()
  .transform((value, context) => {
    if (value === undefined || value === '') return undefined;
    if (value === null) return null;
    const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value);
    const time = Date.parse(dateOnly ? `${value}T23:59:59.999Z` : value);
    if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time) || new Date(time).getUTCFullYear() > 9999) {
      context.addIssue({ code: 'custom', message: MAINTENANCE_MESSAGE });
      return z.NEVER;
    }
    return new Date(time).toISOString();
  });

const termsFields = {
  active: optionalFlagField('active'),
  expire: expireField.optional(),
  max_machines: machineLimitField('max machines'),
  suspended: optionalFlagField('suspended'),
  entitlements: entitlementsField().optional(),
  maintenance_until: maintenanceField,
};

const storeSchema = z.object({ license_type_id: idField('license type id'), user_id: idField('user id'), ...termsFields });
const updateSchema = z.object({ license_type_id: optionalIdField('license type id'), user_id: optionalIdField('user id'), ...termsFields });

export function licenseRoutes(ctx: AppContext) {
  const nowIso = () => new Date(ctx.now()).toISOString();
  const answer = (write: LicenseWrite, viewer: LicenseViewer) => answerLicenseWrite(ctx, write, viewer);

  return new Hono<AppEnv>()
    .get('/getAll', requireAdmin, (c) =>
      // One query per table whatever the number of users; the client joins licenses to users by user_id.
      c.json({
        users: listAllUsers(ctx.db).map(toAdminUser),
        licenses: presentLicenses(ctx.db, listAllLicenses(ctx.db), { viewer: guardedUser(c.get('user')), now: ctx.now() }),
        // The types as GET /api/license/types has them (the form reads their defaults); no per-type counts here.
        license_types: listLicenseTypes(ctx.db).map((type) => presentLicenseType(type, 0)),
      }),
    )
    .post('/store', requireAdmin, smallJsonBody(), validate('json', storeSchema), async (c) => {
      const admin = guardedUser(c.get('user'));
      const input = c.req.valid('json');
      const write = writeTransaction(ctx.db, () => storeLicenseAsAdmin(ctx, admin.id, input));
      return c.json(await answer(write, admin), 201);
    })
    .put('/update/:id', requireAdmin, smallJsonBody(), validate('json', updateSchema), async (c) => {
      const id = parseId(c.req.param('id'));
      if (id === null) return errorResponse(c, 404, LICENSE_MESSAGES.notFound);
      const admin = guardedUser(c.get('user'));
      const input = c.req.valid('json');
      const write = writeTransaction(ctx.db, () => updateLicenseAsAdmin(ctx, admin.id, id, input));
      return c.json(await answer(write, admin));
    })
    .delete('/delete/:id', requireAdmin, (c) => {
      const id = parseId(c.req.param('id'));
      if (id === null) return errorResponse(c, 404, LICENSE_MESSAGES.notFound);
      const user = writeTransaction(ctx.db, () => {
        const removed = deleteLicense(ctx.db, id);
        if (!removed) throw new HttpError(404, LICENSE_MESSAGES.notFound);
        return syncLicenseFlags(ctx.db, removed.user_id, { clearRequest: false }, nowIso());
      });
      return c.json({ message: LICENSE_MESSAGES.deleted, id, user: user ? toAdminUser(user) : null });
    });
}

export const LICENSING_SETTINGS_MESSAGES = { saved: 'Licensing settings saved.' } as const;

// Fields left out keep their values, as in the license update; unknown keys are dropped.
// The per-type machine limits moved to the license types (issue 24, item 1): sent here, they are dropped.
const settingsSchema = z.object({
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

/** The licensing feature as server/app.ts mounts it: the admin's console, the owner's machines, the settings and the software's API, at full paths. */
export function licensingFeature(ctx: AppContext) {
  return new Hono<AppEnv>()
    .route('/api/license', licenseRoutes(ctx))
    .route('/api/license', adminMachineRoutes(ctx))
    .route('/api/user/licenses', ownerMachineRoutes(ctx))
    .route('/api/admin/licensing-settings', licensingSettingsRoutes(ctx))
    .route(LICENSING_PREFIX, licensingApiRoutes(ctx));
}
