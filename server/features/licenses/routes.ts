// Licenses for the admin screen (docs/product/admin.md#admin-screen, docs/product/api.md#admin; issue 7, item 2), mounted at /api/license.
// The date rules live in server/features/licenses/license-dates.ts; here: validation, the write transaction, the
// user's license flags, the license events, and the "your license is active" mail with the key on a grant.
// Issue 12 adds the machine limit (default per type from the licensing settings), suspension, and answers
// in the license object of server/features/licensing/present.ts (docs/admin-api.md#the-license-object-license).
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { writeTransaction } from '../../db/client.ts';
import { listLicenseTypes } from './license-types-queries.ts';
import { deleteLicense, getLicenseWithType, listAllLicenses, updateLicense } from '../../db/queries/licenses.ts';
import { listAllUsers, syncLicenseFlags } from '../../db/queries/users.ts';
import type { License, User } from '../../db/schema.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, HttpError } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { idField, optionalFlagField, optionalIdField, parseId } from '../../http/fields.ts';
import { licenseKind, resolveLicenseDates } from './license-dates.ts';
import {
  answerLicenseWrite,
  checkLicenseReferences,
  factsOf,
  LICENSE_MESSAGES,
  recordLicenseChanges,
  storeLicenseAsAdmin,
  type LicenseWrite,
} from './license-writes.ts';
import { toAdminUser } from '../users/admin-user.ts';
import type { LicenseFacts } from '../licensing/events.ts';
import { presentLicenses, type LicenseViewer } from '../licensing/present.ts';
import { machineLimitField } from '../licensing/settings.ts';

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

const storeSchema = z.object({
  license_type_id: idField('license type id'),
  user_id: idField('user id'),
  active: optionalFlagField('active'),
  expire: expireField.optional(),
  max_machines: machineLimitField('max machines'),
  suspended: optionalFlagField('suspended'),
});

const updateSchema = z.object({
  license_type_id: optionalIdField('license type id'),
  user_id: optionalIdField('user id'),
  active: optionalFlagField('active'),
  expire: expireField.optional(),
  max_machines: machineLimitField('max machines'),
  suspended: optionalFlagField('suspended'),
});

/** The acting admin (requireAdmin ran before). */
function adminOf(user: User | null): LicenseViewer {
  if (!user) throw new Error('requireAdmin let an anonymous request through');
  return user;
}

export function licenseRoutes(ctx: AppContext) {
  const nowIso = () => new Date(ctx.now()).toISOString();

  const checkReferences = (typeId: number, userId: number, expire: number) => checkLicenseReferences(ctx, typeId, userId, expire);
  const recordChanges = (adminId: number, before: LicenseFacts | null, license: License, typeName: string) =>
    recordLicenseChanges(ctx, adminId, before, license, typeName);
  const answer = (write: LicenseWrite, viewer: LicenseViewer) => answerLicenseWrite(ctx, write, viewer);

  return new Hono<AppEnv>()
    .get('/getAll', requireAdmin, (c) =>
      // One query per table whatever the number of users; the client joins licenses to users by user_id.
      c.json({
        users: listAllUsers(ctx.db).map(toAdminUser),
        licenses: presentLicenses(ctx.db, listAllLicenses(ctx.db), { viewer: adminOf(c.get('user')), now: ctx.now() }),
        license_types: listLicenseTypes(ctx.db),
      }),
    )
    .post('/store', requireAdmin, smallJsonBody(), validate('json', storeSchema), async (c) => {
      const admin = adminOf(c.get('user'));
      const input = c.req.valid('json');
      const write = writeTransaction(ctx.db, () => storeLicenseAsAdmin(ctx, admin.id, input));
      return c.json(await answer(write, admin), 201);
    })
    .put('/update/:id', requireAdmin, smallJsonBody(), validate('json', updateSchema), async (c) => {
      const id = parseId(c.req.param('id'));
      if (id === null) return errorResponse(c, 404, LICENSE_MESSAGES.notFound);
      const admin = adminOf(c.get('user'));
      const input = c.req.valid('json');
      const write = writeTransaction(ctx.db, (): LicenseWrite => {
        const stored = getLicenseWithType(ctx.db, id);
        if (!stored) throw new HttpError(404, LICENSE_MESSAGES.notFound);
        if (input.user_id !== undefined && input.user_id !== stored.user_id)
          throw new HttpError(422, LICENSE_MESSAGES.userFixed, { user_id: [LICENSE_MESSAGES.userFixed] });
        const expire = input.expire ?? stored.expire;
        const { type } = checkReferences(input.license_type_id ?? stored.license_type_id, stored.user_id, expire);
        const { dates, activatedNow } = resolveLicenseDates({
          kind: licenseKind(type.name),
          active: input.active === undefined ? undefined : input.active === 1,
          expireDays: expire,
          previous: { active: stored.active === 1 ? 1 : 0, activated_at: stored.activated_at },
          now: ctx.now(),
        });
        // Left out, the machine limit and the suspension keep their stored values (a type change included).
        // A limit below the machines already activated keeps them; the software is then told TOO_MANY_MACHINES.
        const license = updateLicense(ctx.db, id, {
          license_type_id: type.id,
          ...dates,
          max_machines: input.max_machines ?? stored.max_machines,
          suspended: input.suspended ?? stored.suspended,
          updated_at: nowIso(),
        });
        const user = syncLicenseFlags(ctx.db, stored.user_id, { clearRequest: activatedNow, by: admin.id }, nowIso());
        if (!license || !user) throw new Error(`license ${id} or its user vanished inside the transaction`);
        recordChanges(admin.id, factsOf(stored, stored.license_type.name), license, type.name);
        return { license, user, typeName: type.name, granted: activatedNow };
      });
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
