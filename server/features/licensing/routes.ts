// Licenses for the admin screen (docs/product/admin.md#admin-screen, docs/product/api.md#admin; issue 7, item 2), mounted at /api/license.
// The date rules live in server/features/licensing/license-dates.ts; here: validation, the write transaction, the
// user's license flags, the license events, and the "your license is active" mail with the key on a grant.
// Issue 12 adds the machine limit (default per type from the licensing settings), suspension, and answers
// in the license object of server/features/licensing/present.ts (docs/admin-api.md#the-license-object-license).
//
// The licensing API the company's desktop software calls (docs/licensing.md), mounted at /api/licensing/v1.
// Not a browser's API: JSON without cookies, authenticated by the license key alone, so this prefix and
// only this one is exempt from the Origin and XSRF checks (server/auth/csrf.ts; docs/engineering.md,
// planned parts). A session cookie a browser might send along is ignored: nothing here reads the user.
//
// Every answer is `{ code, message, ... }`. Keys cannot be told apart from outside: a key that cannot be
// one, an unknown key and a deleted license's key all answer NOT_FOUND the same way, after the same
// lookup; 150 random bits and the per-key and per-address limits leave guessing hopeless.
//
// Machines from the browser (docs/licensing.md; issue 12, items 6 and 7): the owner deactivates a machine
// or downloads a machine-bound file for an offline machine (mounted at /api/user/licenses), an admin
// deactivates any machine and reads a license's events (mounted at /api/license). Session and XSRF like
// every account call; the seats and events are those of the software's API (activation.ts).
//
// GET/PUT /api/admin/licensing-settings (issue 12, items 5 and 7; docs/admin-api.md#licensing-settings): the
// machine limits new licenses get by type and whether Request License grants a trial at once. Admin only.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin, requireUser } from '../../auth/guards.ts';
import { writeTransaction } from '../../db/client.ts';
import {
  listLicenseTypes,
  deleteLicense,
  getLicenseWithType,
  listAllLicenses,
  updateLicense,
  findLicenseByKey,
  listMachinesOfLicense,
  type LicenseForSoftware,
  type LicenseMachine,
  listLicenseEvents,
} from './queries.ts';
import { listAllUsers } from '../../db/queries/users.ts';
import type { License, User } from '../../db/schema.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse, HttpError, fieldErrorsFromZod, type FieldErrors } from '../../http/errors.ts';
import { validate } from '../../http/validate.ts';
import { idField, optionalFlagField, optionalIdField, oneLine, parseId, required, requiredLine, tooLong, pathId } from '../../http/fields.ts';
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
import { toAdminUser } from '../../auth/public-user.ts';
import type { LicenseFacts } from './events.ts';
import { presentLicenses, type LicenseViewer } from './present.ts';
import { machineLimitField, getLicensingSettings, saveLicensingSettings } from './settings.ts';
import { createHash } from 'node:crypto';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { createCountingRateLimiter } from '../../auth/rate-limit.ts';
import { clientIp, rateLimitAddress } from '../../http/client-ip.ts';
import {
  activateMachine,
  deactivateMachine,
  holdsSeat,
  issueFileFor,
  licenseClaims,
  licenseState,
  SOFTWARE,
  type ActivationRefusal,
  type Actor,
} from './activation.ts';
import { normaliseLicenseKey } from '../../auth/license-keys.ts';
import { syncLicenseFlags } from './queries.ts';
import { presentMachine } from './present.ts';

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

export const LICENSING_PREFIX = '/api/licensing/v1';
/** Far above any real request (a key, a fingerprint, a name and a platform). */
const MAX_BODY_BYTES = 8 * 1024;

export const LICENSING_MESSAGES = {
  VALID: 'The license is valid.',
  ACTIVATED: 'The machine is activated.',
  RENEWED: 'The machine was already activated; its lease is renewed.',
  NOT_FOUND: 'No license has this key.',
  NOT_ACTIVE: 'This license is not active.',
  EXPIRED: 'This license has expired.',
  SUSPENDED: 'This license is suspended.',
  NO_MACHINE: 'This license is not activated on this machine.',
  TOO_MANY_MACHINES: 'This license is already activated on as many machines as it allows; deactivate one first.',
  INVALID_REQUEST: 'The request is not valid JSON.',
  TOO_LARGE: 'The request is too large.',
} as const;

export type ValidationCode = 'VALID' | 'NOT_FOUND' | 'NOT_ACTIVE' | 'EXPIRED' | 'SUSPENDED' | 'NO_MACHINE' | 'TOO_MANY_MACHINES';

/** HTTP status of each refusal of activate (docs/licensing.md). */
export const REFUSAL_STATUS: Record<ActivationRefusal | 'NOT_FOUND', ContentfulStatusCode> = {
  NOT_FOUND: 404,
  NOT_ACTIVE: 403,
  EXPIRED: 403,
  SUSPENDED: 403,
  TOO_MANY_MACHINES: 409,
};

// Generous for a typed or pasted key with spaces; anything longer is not a key but still a well-formed
// request, and answers NOT_FOUND like any other key that is not one.
const keyField = z.string({ error: required('key') }).max(200, tooLong('key', 200));
// A machine's fingerprint, name and platform are one line (server/http/fields.ts): they are shown on the
// dashboard, signed into license files and printed by the command-line tools, where a control character or a
// bidi override forged what support saw (issue 29, item 2). The owner's license-file route uses them too.
const fingerprintField = requiredLine('fingerprint', 255);
const optionalText = (field: string, max: number) =>
  z
    .string({ error: `The ${field} field must be a string.` })
    .trim()
    .max(max, tooLong(field, max))
    .refine(...oneLine(field))
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional();

const activateSchema = z.object({ key: keyField, fingerprint: fingerprintField, name: optionalText('name', 255), platform: optionalText('platform', 100) });
const validateSchema = z.object({ key: keyField, fingerprint: fingerprintField.optional() });
const deactivateSchema = z.object({ key: keyField, fingerprint: fingerprintField });

/**
 * A rate-limit key for a license key: its hash, so no key is stored outside the licenses table. Hashed in
 * the form the lookup reads (normaliseLicenseKey: O → 0, I and L → 1), so respelling one key is not a fresh
 * bucket (issue 29, item 3); text that cannot be a key is counted by its trimmed capitals.
 */
function keyBucket(key: string): string {
  return createHash('sha256')
    .update(normaliseLicenseKey(key) ?? key.trim().toUpperCase())
    .digest('base64url');
}

type Body<Schema extends z.ZodType> = { ok: true; data: z.infer<Schema> } | { ok: false; response: Response };

export function licensingApiRoutes(ctx: AppContext) {
  // Counted in memory and shared through SQLite every 100 ms (or every twentieth of the limit): a write
  // transaction per call would cost more than the call (bench: validate beside a bare handler).
  const limits = { db: ctx.db, windowMs: 60_000, now: ctx.now, syncEveryMs: 100 };
  const perAddress = createCountingRateLimiter({ ...limits, name: 'licensing-ip', limit: ctx.config.licensingRequestsPerMinute });
  const perKey = createCountingRateLimiter({ ...limits, name: 'licensing-key', limit: ctx.config.licensingKeyRequestsPerMinute });

  const answer = (c: Context, status: ContentfulStatusCode, code: string, message: string, extra: Record<string, unknown> = {}) =>
    c.json({ code, message, ...extra }, status);

  /**
   * Counts the call against the caller's address (malformed calls too), parses and validates the JSON
   * body (400 when it is not JSON, 422 with the usual field errors, docs/product/messages.md#validation),
   * then counts the call against the key.
   */
  const readBody = async <Schema extends z.ZodType<{ key: string }>>(c: Context<AppEnv>, schema: Schema): Promise<Body<Schema>> => {
    const refuse = (retryAfterSeconds: number): Body<Schema> => {
      c.header('Retry-After', String(retryAfterSeconds));
      return { ok: false, response: answer(c, 429, 'RATE_LIMITED', `Too many requests. Please try again in ${retryAfterSeconds} seconds.`) };
    };
    const byAddress = perAddress.consume(rateLimitAddress(clientIp(c, ctx.config)));
    if (!byAddress.allowed) return refuse(byAddress.retryAfterSeconds);
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      return { ok: false, response: answer(c, 400, 'INVALID_REQUEST', LICENSING_MESSAGES.INVALID_REQUEST) };
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const errors: FieldErrors = fieldErrorsFromZod(parsed.error);
      const message = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
      return { ok: false, response: answer(c, 422, 'INVALID_REQUEST', message, { errors }) };
    }
    const byKey = perKey.consume(keyBucket(parsed.data.key));
    if (!byKey.allowed) return refuse(byKey.retryAfterSeconds);
    return { ok: true, data: parsed.data };
  };

  const overLimit = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => answer(c, 413, 'TOO_LARGE', LICENSING_MESSAGES.TOO_LARGE) });
  /**
   * Hono's bodyLimit wraps every body in a counting stream, which cost this API most of its throughput
   * (bench: validate beside a bare handler). A body with a Content-Length and no Transfer-Encoding is
   * exactly that long (Node's parser reads no more and refuses both headers together), so the header
   * alone decides; only other bodies go through the counting stream.
   */
  const limitBody = createMiddleware<AppEnv>(async (c, next) => {
    const length = c.req.header('Content-Length');
    if (length === undefined || c.req.header('Transfer-Encoding') !== undefined || !/^\d{1,15}$/.test(length)) return overLimit(c, next);
    if (Number(length) > MAX_BODY_BYTES) return answer(c, 413, 'TOO_LARGE', LICENSING_MESSAGES.TOO_LARGE);
    await next();
  });

  /** The license of a key, or undefined for anything else; the lookup runs for every key alike. */
  const licenseOf = (key: string): LicenseForSoftware | undefined => findLicenseByKey(ctx.db, normaliseLicenseKey(key) ?? key);

  return new Hono<AppEnv>()
    .use('*', limitBody)
    .get('/keys', (c) => {
      // Public keys only; they change when a key is added, so a few minutes of caching cost nothing.
      c.header('Cache-Control', 'public, max-age=300');
      return c.json({ keys: ctx.keyring().published });
    })
    .post('/activate', async (c) => {
      const body = await readBody(c, activateSchema);
      if (!body.ok) return body.response;
      const { key, fingerprint, name, platform } = body.data;
      const license = licenseOf(key);
      if (!license) return answer(c, 404, 'NOT_FOUND', LICENSING_MESSAGES.NOT_FOUND);
      const result = activateMachine(ctx, license, { fingerprint, name, platform }, SOFTWARE);
      if (!result.ok) return answer(c, REFUSAL_STATUS[result.code], result.code, LICENSING_MESSAGES[result.code]);
      const file = await issueFileFor(ctx, result.license, result.machine);
      return answer(c, result.created ? 201 : 200, 'ACTIVATED', result.created ? LICENSING_MESSAGES.ACTIVATED : LICENSING_MESSAGES.RENEWED, {
        machine: presentMachine(result.machine),
        license_file: file,
      });
    })
    .post('/validate', async (c) => {
      const body = await readBody(c, validateSchema);
      if (!body.ok) return body.response;
      const { key, fingerprint } = body.data;
      const license = licenseOf(key);
      const result = (code: ValidationCode, machines: LicenseMachine[]) =>
        answer(c, 200, code, LICENSING_MESSAGES[code], {
          valid: code === 'VALID',
          license: license ? { ...licenseClaims(license), active_machines: machines.length } : null,
        });
      if (!license) return result('NOT_FOUND', []);
      const machines = listMachinesOfLicense(ctx.db, license.id);
      const state = licenseState(license, ctx.now());
      if (state !== 'VALID' || fingerprint === undefined) return result(state, machines);
      const machine = machines.find((candidate) => candidate.fingerprint === fingerprint);
      if (!machine) return result('NO_MACHINE', machines);
      return result(holdsSeat(machines, machine.id, license.max_machines) ? 'VALID' : 'TOO_MANY_MACHINES', machines);
    })
    .post('/deactivate', async (c) => {
      const body = await readBody(c, deactivateSchema);
      if (!body.ok) return body.response;
      const license = licenseOf(body.data.key);
      if (!license) return answer(c, 404, 'NOT_FOUND', LICENSING_MESSAGES.NOT_FOUND);
      const removed = deactivateMachine(ctx, license, { fingerprint: body.data.fingerprint }, SOFTWARE);
      if (!removed) return answer(c, 404, 'NO_MACHINE', LICENSING_MESSAGES.NO_MACHINE);
      return c.body(null, 204);
    });
}

export const MACHINE_MESSAGES = {
  licenseNotFound: 'License not found.',
  machineNotFound: 'Machine not found.',
} as const;

const licenseFileSchema = z.object({ fingerprint: fingerprintField, name: optionalText('name', 255) });

export function ownerMachineRoutes(ctx: AppContext) {
  /** The signed-in user's own license; someone else's answers exactly like one that does not exist. */
  const ownLicense = (userId: number, licenseIdText: string | undefined) => {
    const license = getLicenseWithType(ctx.db, pathId(licenseIdText));
    return license && license.user_id === userId ? license : undefined;
  };

  return new Hono<AppEnv>()
    .delete('/:licenseId/machines/:machineId', requireUser, (c) => {
      const user = c.get('user');
      const license = user && ownLicense(user.id, c.req.param('licenseId'));
      if (!user || !license) return errorResponse(c, 404, MACHINE_MESSAGES.licenseNotFound);
      const actor: Actor = { kind: 'user', userId: user.id };
      const removed = deactivateMachine(ctx, license, { machineId: pathId(c.req.param('machineId')) }, actor);
      if (!removed) return errorResponse(c, 404, MACHINE_MESSAGES.machineNotFound);
      return c.body(null, 204);
    })
    .post('/:licenseId/license-file', requireUser, smallJsonBody(), validate('json', licenseFileSchema), async (c) => {
      const user = c.get('user');
      const license = user && ownLicense(user.id, c.req.param('licenseId'));
      if (!user || !license) return errorResponse(c, 404, MACHINE_MESSAGES.licenseNotFound);
      const { fingerprint, name } = c.req.valid('json');
      // Takes (or renews) a seat exactly like the software's activate: an offline machine counts too.
      const result = activateMachine(ctx, license, { fingerprint, name }, { kind: 'user', userId: user.id });
      if (!result.ok) return c.json({ message: LICENSING_MESSAGES[result.code], code: result.code }, REFUSAL_STATUS[result.code]);
      const file = await issueFileFor(ctx, result.license, result.machine);
      return c.body(file, 200, {
        'Content-Type': 'application/jwt',
        'Content-Disposition': `attachment; filename="${result.license.key ?? `license-${license.id}`}.lic"`,
        'Cache-Control': 'no-store',
      });
    });
}

export function adminMachineRoutes(ctx: AppContext) {
  return new Hono<AppEnv>()
    .delete('/:licenseId/machines/:machineId', requireAdmin, (c) => {
      const license = getLicenseWithType(ctx.db, pathId(c.req.param('licenseId')));
      if (!license) return errorResponse(c, 404, MACHINE_MESSAGES.licenseNotFound);
      const actor: Actor = { kind: 'admin', userId: c.get('user')?.id ?? null };
      const removed = deactivateMachine(ctx, license, { machineId: pathId(c.req.param('machineId')) }, actor);
      if (!removed) return errorResponse(c, 404, MACHINE_MESSAGES.machineNotFound);
      return c.body(null, 204);
    })
    .get('/:licenseId/events', requireAdmin, (c) => {
      const license = getLicenseWithType(ctx.db, pathId(c.req.param('licenseId')));
      if (!license) return errorResponse(c, 404, MACHINE_MESSAGES.licenseNotFound);
      return c.json({ events: listLicenseEvents(ctx.db, license.id) });
    });
}

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

/** The licensing feature as server/app.ts mounts it: licenses: the admin's console, the owner's machines, the settings and the software's API, at full paths. */
export function licensingFeature(ctx: AppContext) {
  return new Hono<AppEnv>()
    .route('/api/license', licenseRoutes(ctx))
    .route('/api/license', adminMachineRoutes(ctx))
    .route('/api/user/licenses', ownerMachineRoutes(ctx))
    .route('/api/admin/licensing-settings', licensingSettingsRoutes(ctx))
    .route(LICENSING_PREFIX, licensingApiRoutes(ctx));
}
