// Licenses for the admin screen (docs/product/admin.md#admin-screen, docs/product/api.md#admin; issue 7, item 2), mounted at /api/license.
// The date rules live in server/features/licenses/license-dates.ts; here: validation, the write transaction, the
// user's license flags, and the "your license is active" mail on a grant.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { writeTransaction } from '../../db/client.ts';
import { getLicenseTypeById, listLicenseTypes } from './license-types-queries.ts';
import { deleteLicense, getLicenseWithType, insertLicense, listAllLicenses, updateLicense } from '../../db/queries/licenses.ts';
import { getUserById, listAllUsers, syncLicenseFlags } from '../../db/queries/users.ts';
import type { License, User } from '../../db/schema.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, HttpError, type FieldErrors } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { idField, optionalFlagField, optionalIdField, parseId } from '../../http/fields.ts';
import { licenseGrantedEmail } from '../../mail/templates.ts';
import { sendSafely } from '../../mail/transport.ts';
import { licenseKind, resolveLicenseDates } from './license-dates.ts';
import { toAdminUser } from '../users/admin-user.ts';

export const LICENSE_MESSAGES = {
  saved: 'License saved.',
  granted: 'License granted; the user was e-mailed.',
  grantedMailFailed: 'License granted, but the e-mail to the user could not be sent.',
  deleted: 'License deleted.',
  notFound: 'License not found.',
  typeInvalid: 'The selected license type is invalid.',
  userInvalid: 'The selected user is invalid.',
  userFixed: 'A license cannot be moved to another user.',
  trialNeedsDays: 'A trial license needs an expiry of at least 1 day.',
} as const;

/** Longer than any license anyone would grant; keeps date arithmetic far from overflow. */
const MAX_EXPIRE_DAYS = 36_500;

/** Empty form values ('' or null) mean "not sent". */
const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

const expireField = z.preprocess(
  blankToUndefined,
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/, 'The expire field must be a whole number of days.')], { error: 'The expire field must be a whole number of days.' })
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
});

const updateSchema = z.object({
  license_type_id: optionalIdField('license type id'),
  user_id: optionalIdField('user id'),
  active: optionalFlagField('active'),
  expire: expireField.optional(),
});

interface LicenseWrite {
  license: License;
  user: User;
  typeName: string;
  granted: boolean;
}

/** "2026-02-01 12:00 UTC": what the grant mail says about the expiry. */
function mailDate(iso: string | null): string | null {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : null;
}

export function licenseRoutes(ctx: AppContext) {
  const nowIso = () => new Date(ctx.now()).toISOString();

  /** Type and user must exist; a trial needs days. All problems are reported together. */
  const checkReferences = (typeId: number, userId: number, expire: number) => {
    const type = getLicenseTypeById(ctx.db, typeId);
    const user = getUserById(ctx.db, userId);
    const errors: FieldErrors = {};
    if (!type) errors.license_type_id = [LICENSE_MESSAGES.typeInvalid];
    if (!user) errors.user_id = [LICENSE_MESSAGES.userInvalid];
    if (type && licenseKind(type.name) === 'trial' && expire < 1) errors.expire = [LICENSE_MESSAGES.trialNeedsDays];
    if (!type || !user || Object.keys(errors).length > 0) throw new HttpError(422, Object.values(errors)[0]?.[0] ?? LICENSE_MESSAGES.typeInvalid, errors);
    return { type, user };
  };

  /** After the write: on a grant, mail the user; answer with the license, the user's new flags and the outcome. */
  const answer = async (write: LicenseWrite) => {
    let mailSent: boolean | null = null;
    if (write.granted) {
      const content = licenseGrantedEmail(ctx.config, { name: write.user.name, licenseType: write.typeName, expireDate: mailDate(write.license.expire_date) });
      mailSent = await sendSafely(ctx.mailer, { to: write.user.email, ...content }, ctx.log);
    }
    return {
      message: write.granted ? (mailSent ? LICENSE_MESSAGES.granted : LICENSE_MESSAGES.grantedMailFailed) : LICENSE_MESSAGES.saved,
      license: getLicenseWithType(ctx.db, write.license.id),
      user: toAdminUser(write.user),
      granted: write.granted,
      mail_sent: mailSent,
    };
  };

  return new Hono<AppEnv>()
    .get('/getAll', requireAdmin, (c) =>
      // One query per table whatever the number of users; the client joins licenses to users by user_id.
      c.json({ users: listAllUsers(ctx.db).map(toAdminUser), licenses: listAllLicenses(ctx.db), license_types: listLicenseTypes(ctx.db) }),
    )
    .post('/store', requireAdmin, smallJsonBody(), validate('json', storeSchema), async (c) => {
      const input = c.req.valid('json');
      const expire = input.expire ?? 0;
      const write = writeTransaction(ctx.db, (): LicenseWrite => {
        const { type } = checkReferences(input.license_type_id, input.user_id, expire);
        const now = ctx.now();
        const { dates, activatedNow } = resolveLicenseDates({ kind: licenseKind(type.name), active: input.active === undefined ? undefined : input.active === 1, expireDays: expire, previous: null, now });
        const license = insertLicense(ctx.db, { license_type_id: type.id, user_id: input.user_id, ...dates, created_at: nowIso(), updated_at: nowIso() });
        const user = syncLicenseFlags(ctx.db, input.user_id, { clearRequest: activatedNow }, nowIso());
        if (!user) throw new Error(`user ${input.user_id} vanished inside the transaction`);
        return { license, user, typeName: type.name, granted: activatedNow };
      });
      return c.json(await answer(write), 201);
    })
    .put('/update/:id', requireAdmin, smallJsonBody(), validate('json', updateSchema), async (c) => {
      const id = parseId(c.req.param('id'));
      if (id === null) return errorResponse(c, 404, LICENSE_MESSAGES.notFound);
      const input = c.req.valid('json');
      const write = writeTransaction(ctx.db, (): LicenseWrite => {
        const stored = getLicenseWithType(ctx.db, id);
        if (!stored) throw new HttpError(404, LICENSE_MESSAGES.notFound);
        if (input.user_id !== undefined && input.user_id !== stored.user_id) throw new HttpError(422, LICENSE_MESSAGES.userFixed, { user_id: [LICENSE_MESSAGES.userFixed] });
        const expire = input.expire ?? stored.expire;
        const { type } = checkReferences(input.license_type_id ?? stored.license_type_id, stored.user_id, expire);
        const { dates, activatedNow } = resolveLicenseDates({
          kind: licenseKind(type.name),
          active: input.active === undefined ? undefined : input.active === 1,
          expireDays: expire,
          previous: { active: stored.active === 1 ? 1 : 0, activated_at: stored.activated_at },
          now: ctx.now(),
        });
        const license = updateLicense(ctx.db, id, { license_type_id: type.id, ...dates, updated_at: nowIso() });
        const user = syncLicenseFlags(ctx.db, stored.user_id, { clearRequest: activatedNow }, nowIso());
        if (!license || !user) throw new Error(`license ${id} or its user vanished inside the transaction`);
        return { license, user, typeName: type.name, granted: activatedNow };
      });
      return c.json(await answer(write));
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
