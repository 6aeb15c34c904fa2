// License types as editions the admin manages (issue 24, item 1; docs/admin-api.md#license-types):
// GET/POST /api/license/types, PUT/DELETE /api/license/types/{id}. Admin only, session and XSRF like every
// admin call. A type holds a grant's defaults: entitlements, machine limit (seats when floating), expiry
// days, maintenance days, and for a floating type the lease length. Changing a type changes what every
// license of it gives from then on (entitlements, floating, lease); dates already granted stay.
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { writeTransaction } from '../../db/client.ts';
import type { LicenseType } from '../../db/schema.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, HttpError, type FieldErrors } from '../../http/errors.ts';
import { optionalFlagField, parseId, requiredText, wholeNumberField } from '../../http/fields.ts';
import { validate } from '../../http/validate.ts';
import { entitlementsField, storedEntitlements } from './entitlement-codes.ts';
import { isBuiltInType, presentLicenseType } from './present.ts';
import {
  countLicensesOfType,
  deleteLicenseType,
  findLicenseTypeByName,
  getLicenseTypeById,
  insertLicenseType,
  listLicenseTypes,
  updateLicenseType,
  type NewLicenseType,
} from './queries.ts';

export const MAX_MACHINES_LIMIT = 1000;
/** The longest expiry and maintenance, as for a license's expiry (server/features/licensing/routes.ts). */
export const MAX_TYPE_DAYS = 36_500;
export const MAX_LEASE_MINUTES = 1440;
export const DEFAULT_LEASE_MINUTES = 15;

export const LICENSE_TYPE_MESSAGES = {
  created: 'License type created.',
  saved: 'License type saved.',
  deleted: 'License type deleted.',
  notFound: 'License type not found.',
  nameTaken: 'A license type with this name already exists.',
  builtInName: 'The trial and perpetual types keep their names: the product relies on them.',
  builtInDelete: 'The trial and perpetual types cannot be deleted.',
  inUse: (count: number) => `${count} ${count === 1 ? 'license uses' : 'licenses use'} this type; change or delete ${count === 1 ? 'it' : 'them'} first.`,
  trialNeedsDays: 'The trial type needs a duration of at least 1 day.',
} as const;

const fields = {
  entitlements: entitlementsField().optional(),
  max_machines: wholeNumberField('max machines', 1, MAX_MACHINES_LIMIT),
  duration_days: wholeNumberField('duration days', 0, MAX_TYPE_DAYS),
  maintenance_days: wholeNumberField('maintenance days', 0, MAX_TYPE_DAYS),
  floating: optionalFlagField('floating'),
  lease_minutes: wholeNumberField('lease minutes', 1, MAX_LEASE_MINUTES),
};
const createSchema = z.object({ name: requiredText('name', 50), ...fields });
// Fields left out keep their values, as in the license update.
const updateSchema = z.object({ name: requiredText('name', 50).optional(), ...fields });
type TypeInput = z.infer<typeof updateSchema>;

/** What the checks that need the database say; all problems together, nothing written. */
function checkType(ctx: AppContext, input: TypeInput, current: LicenseType | null): void {
  const errors: FieldErrors = {};
  const name = input.name ?? current?.name;
  if (input.name !== undefined) {
    const other = findLicenseTypeByName(ctx.db, input.name);
    if (other && other.id !== current?.id) errors.name = [LICENSE_TYPE_MESSAGES.nameTaken];
    else if (current && isBuiltInType(current.name) && input.name !== current.name) errors.name = [LICENSE_TYPE_MESSAGES.builtInName];
  }
  if (name === 'trial' && (input.duration_days ?? current?.duration_days ?? 0) < 1) errors.duration_days = [LICENSE_TYPE_MESSAGES.trialNeedsDays];
  const first = Object.values(errors)[0]?.[0];
  if (first) throw new HttpError(422, first, errors);
}

function columnsOf(input: TypeInput): Partial<NewLicenseType> {
  const { entitlements, ...rest } = input;
  const columns: Partial<NewLicenseType> = {};
  for (const [field, value] of Object.entries(rest)) if (value !== undefined) Object.assign(columns, { [field]: value });
  if (entitlements !== undefined) columns.entitlements = storedEntitlements(entitlements);
  return columns;
}

export function licenseTypesFeature(ctx: AppContext) {
  const nowIso = () => new Date(ctx.now()).toISOString();
  const present = (type: LicenseType) => presentLicenseType(type, countLicensesOfType(ctx.db, type.id));

  return new Hono<AppEnv>()
    .get('/api/license/types', requireAdmin, (c) => c.json({ license_types: listLicenseTypes(ctx.db).map(present) }))
    .post('/api/license/types', requireAdmin, smallJsonBody(), validate('json', createSchema), (c) => {
      const input = c.req.valid('json');
      const type = writeTransaction(ctx.db, () => {
        checkType(ctx, input, null);
        return insertLicenseType(ctx.db, {
          lease_minutes: DEFAULT_LEASE_MINUTES,
          ...columnsOf(input),
          name: input.name,
          created_at: nowIso(),
          updated_at: nowIso(),
        });
      });
      ctx.log.info(`License type ${type.id} created by user ${c.get('user')?.id ?? '?'}`);
      return c.json({ message: LICENSE_TYPE_MESSAGES.created, license_type: present(type) }, 201);
    })
    .put('/api/license/types/:id', requireAdmin, smallJsonBody(), validate('json', updateSchema), (c) => {
      const id = parseId(c.req.param('id'));
      if (id === null) return errorResponse(c, 404, LICENSE_TYPE_MESSAGES.notFound);
      const input = c.req.valid('json');
      const type = writeTransaction(ctx.db, () => {
        const current = getLicenseTypeById(ctx.db, id);
        if (!current) throw new HttpError(404, LICENSE_TYPE_MESSAGES.notFound);
        checkType(ctx, input, current);
        const updated = updateLicenseType(ctx.db, id, { ...columnsOf(input), updated_at: nowIso() });
        if (!updated) throw new Error(`license type ${id} vanished inside the transaction`);
        return updated;
      });
      return c.json({ message: LICENSE_TYPE_MESSAGES.saved, license_type: present(type) });
    })
    .delete('/api/license/types/:id', requireAdmin, (c) => {
      const id = parseId(c.req.param('id'));
      if (id === null) return errorResponse(c, 404, LICENSE_TYPE_MESSAGES.notFound);
      // The count and the delete in one transaction: a license granted meanwhile is never left without its type.
      writeTransaction(ctx.db, () => {
        const current = getLicenseTypeById(ctx.db, id);
        if (!current) throw new HttpError(404, LICENSE_TYPE_MESSAGES.notFound);
        if (isBuiltInType(current.name)) throw new HttpError(409, LICENSE_TYPE_MESSAGES.builtInDelete);
        const inUse = countLicensesOfType(ctx.db, id);
        if (inUse > 0) throw new HttpError(409, LICENSE_TYPE_MESSAGES.inUse(inUse));
        deleteLicenseType(ctx.db, id);
      });
      return c.json({ message: LICENSE_TYPE_MESSAGES.deleted, id });
    });
}
