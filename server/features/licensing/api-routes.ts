// The licensing API the company's desktop software calls (docs/licensing.md), mounted at /api/licensing/v1.
// Not a browser's API: JSON without cookies, authenticated by the license key alone, so this prefix and
// only this one is exempt from the Origin and XSRF checks (server/auth/csrf.ts; docs/engineering.md,
// planned parts). A session cookie a browser might send along is ignored: nothing here reads the user.
//
// Every answer is `{ code, message, ... }`. Keys cannot be told apart from outside: a key that cannot be
// one, an unknown key and a deleted license's key all answer NOT_FOUND the same way, after the same
// lookup; 150 random bits and the per-key and per-address limits leave guessing hopeless.
//
// Issue 24: the software may ask for entitlements (validate, activate: ENTITLEMENTS_MISSING), and keeps a
// floating license's lease alive with heartbeats (HEARTBEAT_DEAD once it lapsed).
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppContext, AppEnv } from '../../context.ts';
import { createCountingRateLimiter } from '../../auth/rate-limit.ts';
import { licenseKeyBucket, normaliseLicenseKey } from '../../auth/license-keys.ts';
import { clientIp, rateLimitAddress } from '../../http/client-ip.ts';
import { fieldErrorsFromZod, type FieldErrors } from '../../http/errors.ts';
import { oneLine, required, requiredLine, tooLong } from '../../http/fields.ts';
import { entitlementsField } from '../license-types/index.ts';
import {
  activateMachine,
  deactivateMachine,
  heartbeat,
  issueFileFor,
  licenseClaims,
  licenseState,
  SOFTWARE,
  termsOf,
  type ActivationRefusal,
} from './activation.ts';
import { missingEntitlements } from './license-terms.ts';
import { presentMachine } from './present.ts';
import { holdsSeat, liveMachines } from './seats.ts';
import { findLicenseByKey, listMachinesOfLicense, type LicenseForSoftware, type LicenseMachine } from './queries.ts';

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
  ENTITLEMENTS_MISSING: 'This license does not include every feature asked for.',
  HEARTBEAT_DEAD: 'The lease of this machine has ended; activate again.',
  INVALID_REQUEST: 'The request is not valid JSON.',
  TOO_LARGE: 'The request is too large.',
} as const;

export type ValidationCode = 'VALID' | 'NOT_FOUND' | 'NOT_ACTIVE' | 'EXPIRED' | 'SUSPENDED' | 'NO_MACHINE' | 'TOO_MANY_MACHINES' | 'ENTITLEMENTS_MISSING';

/** HTTP status of each refusal of activate (docs/licensing.md). */
export const REFUSAL_STATUS: Record<ActivationRefusal | 'NOT_FOUND', ContentfulStatusCode> = {
  NOT_FOUND: 404,
  NOT_ACTIVE: 403,
  EXPIRED: 403,
  SUSPENDED: 403,
  TOO_MANY_MACHINES: 409,
  ENTITLEMENTS_MISSING: 403,
};

// Generous for a typed or pasted key with spaces; anything longer is not a key but still a well-formed
// request, and answers NOT_FOUND like any other key that is not one.
const keyField = z.string({ error: required('key') }).max(200, tooLong('key', 200));
// A machine's fingerprint, name and platform are one line (server/http/fields.ts): they are shown on the
// dashboard, signed into license files and printed by the command-line tools, where a control character or a
// bidi override forged what support saw (issue 29, item 2). The owner's license-file route uses them too.
export const fingerprintField = requiredLine('fingerprint', 255);
export const optionalText = (field: string, max: number) =>
  z
    .string({ error: `The ${field} field must be a string.` })
    .trim()
    .max(max, tooLong(field, max))
    .refine(...oneLine(field))
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional();

const askedField = entitlementsField().optional();
export const activateSchema = z.object({
  key: keyField,
  fingerprint: fingerprintField,
  name: optionalText('name', 255),
  platform: optionalText('platform', 100),
  entitlements: askedField,
});
export const validateSchema = z.object({ key: keyField, fingerprint: fingerprintField.optional(), entitlements: askedField });
export const heartbeatSchema = z.object({ key: keyField, fingerprint: fingerprintField });
export const deactivateSchema = z.object({ key: keyField, fingerprint: fingerprintField });

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
    const byKey = perKey.consume(licenseKeyBucket(parsed.data.key));
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
      const { key, fingerprint, name, platform, entitlements } = body.data;
      const license = licenseOf(key);
      if (!license) return answer(c, 404, 'NOT_FOUND', LICENSING_MESSAGES.NOT_FOUND);
      const result = activateMachine(ctx, license, { fingerprint, name, platform }, SOFTWARE, { entitlements });
      if (!result.ok) {
        const extra = result.code === 'ENTITLEMENTS_MISSING' ? { missing: result.missing } : {};
        return answer(c, REFUSAL_STATUS[result.code], result.code, LICENSING_MESSAGES[result.code], extra);
      }
      const file = await issueFileFor(ctx, result.license, result.machine);
      return answer(c, result.created ? 201 : 200, 'ACTIVATED', result.created ? LICENSING_MESSAGES.ACTIVATED : LICENSING_MESSAGES.RENEWED, {
        license: licenseClaims(result.license),
        machine: presentMachine(result.machine),
        license_file: file,
      });
    })
    .post('/validate', async (c) => {
      const body = await readBody(c, validateSchema);
      if (!body.ok) return body.response;
      const { key, fingerprint, entitlements } = body.data;
      const license = licenseOf(key);
      const now = ctx.now();
      const result = (code: ValidationCode, machines: LicenseMachine[], extra: Record<string, unknown> = {}) =>
        answer(c, 200, code, LICENSING_MESSAGES[code], {
          valid: code === 'VALID',
          ...extra,
          license: license ? { ...licenseClaims(license), active_machines: machines.length } : null,
        });
      if (!license) return result('NOT_FOUND', []);
      // A floating license's lapsed leases hold no seat, whether or not an activation removed them yet.
      const machines = liveMachines({ floating: license.type_floating }, listMachinesOfLicense(ctx.db, license.id), now);
      const state = licenseState(license, now);
      if (state !== 'VALID') return result(state, machines);
      const missing = missingEntitlements(termsOf(license), entitlements);
      if (missing.length > 0) return result('ENTITLEMENTS_MISSING', machines, { missing });
      if (fingerprint === undefined) return result(state, machines);
      const machine = machines.find((candidate) => candidate.fingerprint === fingerprint);
      if (!machine) return result('NO_MACHINE', machines);
      return result(holdsSeat(machines, machine.id, license.max_machines) ? 'VALID' : 'TOO_MANY_MACHINES', machines);
    })
    .post('/heartbeat', async (c) => {
      // Every few minutes from every floating seat: one transaction, one signature, nothing else (bench: heartbeat).
      const body = await readBody(c, heartbeatSchema);
      if (!body.ok) return body.response;
      const beat = heartbeat(ctx, normaliseLicenseKey(body.data.key) ?? body.data.key, body.data.fingerprint);
      if (!beat.ok) return answer(c, 200, beat.code, LICENSING_MESSAGES[beat.code], { valid: false });
      return answer(c, 200, 'VALID', LICENSING_MESSAGES.VALID, {
        valid: true,
        lease_expires_at: beat.machine.lease_expires_at,
        license_file: await issueFileFor(ctx, beat.license, beat.machine),
      });
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
