// The signed-in user's own account actions (docs/product/accounts.md#dashboard, docs/product/api.md; issue 3, item 6), mounted at /api/user beside
// GET /api/user: requesting the free trial license (granted at once when the admin's licensing setting says so;
// issue 12, item 7) and editing the profile.
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAjaxHeader } from '../../auth/ajax-only.ts';
import { isAdmin, requireUser } from '../../auth/guards.ts';
import { findProtectedChanges } from '../../auth/protected-user-fields.ts';
import { toPublicUser } from '../../auth/public-user.ts';
import { writeTransaction } from '../../db/client.ts';
import { getLicensesOfUser, hasActiveLicense } from '../../db/queries/licenses.ts';
import { getUserById, setLicenseRequest, updateProfile } from '../../db/queries/users.ts';
import type { User } from '../../db/schema.ts';
import { sendSafely } from '../../mail/transport.ts';
import { insertLicenseRequest } from '../../db/queries/license-requests.ts';
import { notifyAdmins } from '../inbox/notify.ts';
import { licenseRequestedAdminEmail, licenseRequestedUserEmail } from '../../mail/templates.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse } from '../../http/errors.ts';
import { parseId, pathId, required, tooLong } from '../../http/fields.ts';
import { validate } from '../../http/validate.ts';
import { grantTrialAutomatically } from '../licensing/auto-grant.ts';
import { sendLicenseGrantedMail } from '../licensing/license-mails.ts';
import { presentLicenses } from '../licensing/present.ts';

export const ACCOUNT_MESSAGES = {
  forbidden: 'This action is unauthorized.',
  activeLicense: 'You already have an active license.',
  notFound: 'User not found.',
  protectedFields: (fields: string[]) => `These fields cannot be changed here: ${fields.join(', ')}.`,
} as const;

/** Optional text: trimmed, and empty (or null) stored as null, which the user card shows as blank. */
function optionalText(field: string, max: number) {
  return z
    .string({ error: `The ${field} field must be a string.` })
    .trim()
    .max(max, tooLong(field, max))
    .nullish()
    .transform((value) => (value === '' ? null : value));
}

// Only these keys can reach the update; unknown keys (id, timestamps, licenses…) are dropped here, and
// the protected ones are refused before this runs.
export const profileSchema = z.object({
  name: z
    .string({ error: required('name') })
    .trim()
    .min(1, required('name'))
    .max(255, tooLong('name', 255))
    .optional(),
  surname: optionalText('surname', 255),
  companyName: optionalText('company name', 255),
  address: optionalText('address', 500),
  postcode: optionalText('postcode', 32),
  county: optionalText('county', 255),
  country: optionalText('country', 255),
  phone: optionalText('phone', 64),
  vat: optionalText('vat', 64),
});

/**
 * Who may edit whose profile here: the user their own, an admin anyone's (same fields). In practice an
 * admin's request never gets here: server/features/users/routes.ts is mounted first on the same path and
 * answers admins with the wider admin edit (role, ban, verification; issue 7).
 */
function mayEditProfile(actor: User, targetId: number): boolean {
  return actor.id === targetId || isAdmin(actor);
}

export function accountRoutes(ctx: AppContext) {
  const currentUser = (user: User | null): User => {
    if (!user) throw new Error('requireUser let an anonymous request through');
    return user;
  };

  // 403 before validation: refusing to say what would be wrong with a record you may not edit.
  const mayEditTarget = createMiddleware<AppEnv>(async (c, next) => {
    const actor = currentUser(c.get('user'));
    const id = parseId(c.req.param('id'));
    if (id === null || !mayEditProfile(actor, id)) return errorResponse(c, 403, ACCOUNT_MESSAGES.forbidden);
    await next();
  });

  // The client sends the whole user object (docs/product/api.md), so protected fields arrive as echoes of their
  // current values; only an attempt to change one is refused, explicitly rather than silently ignored.
  const refuseProtectedChanges = createMiddleware<AppEnv>(async (c, next) => {
    const target = getUserById(ctx.db, pathId(c.req.param('id')));
    if (!target) return errorResponse(c, 404, ACCOUNT_MESSAGES.notFound);
    const body: unknown = await c.req.json().catch(() => undefined);
    const changed = findProtectedChanges(body, target);
    if (changed.length > 0) return errorResponse(c, 403, ACCOUNT_MESSAGES.protectedFields(changed));
    await next();
  });

  return new Hono<AppEnv>()
    .get('/request-license/:userId', requireUser, requireAjaxHeader, async (c) => {
      const actor = currentUser(c.get('user'));
      if (c.req.param('userId') !== String(actor.id)) return errorResponse(c, 403, ACCOUNT_MESSAGES.forbidden);
      const outcome = writeTransaction(ctx.db, () => {
        if (hasActiveLicense(ctx.db, actor.id)) return { kind: 'active' } as const;
        const user = getUserById(ctx.db, actor.id);
        if (!user) throw new Error(`user ${actor.id} vanished during its own request`);
        // Before the "asked already" check: a request made while the setting was off is granted now.
        const trial = grantTrialAutomatically(ctx, user);
        if (trial) return { kind: 'granted', ...trial } as const;
        // Asking again is harmless and sends no second round of mails.
        if (user.license_request) return { kind: 'unchanged', user } as const;
        const at = new Date(ctx.now()).toISOString();
        setLicenseRequest(ctx.db, actor.id, true, at);
        // The admins' inbox item (docs/product/admin.md#inbox): in the same transaction as the flag, so neither exists without the other.
        insertLicenseRequest(ctx.db, actor.id, at);
        return { kind: 'requested', user: { ...user, license_request: 1 } } as const;
      });
      if (outcome.kind === 'active') return errorResponse(c, 422, ACCOUNT_MESSAGES.activeLicense);
      let mailSent: boolean | null = null;
      if (outcome.kind === 'requested') {
        const { user } = outcome;
        // The request is stored already; a failed mail is logged and loses nothing.
        await Promise.all([
          notifyAdmins(ctx, licenseRequestedAdminEmail(ctx.config, { user })),
          sendSafely(ctx.mailer, { to: user.email, ...licenseRequestedUserEmail(ctx.config, { name: user.name }) }, ctx.log),
        ]);
      }
      if (outcome.kind === 'granted') {
        const { license, user, typeName } = outcome;
        // The trial is stored already; a failed mail is logged, and the dashboard shows the key anyway.
        mailSent = await sendLicenseGrantedMail(ctx, user, { key: license.key, typeName, expireDate: license.expire_date, maxMachines: license.max_machines });
      }
      return c.json({
        user: toPublicUser(outcome.user),
        licenses: presentLicenses(ctx.db, getLicensesOfUser(ctx.db, actor.id), { viewer: actor, now: ctx.now() }),
        granted: outcome.kind === 'granted',
        mail_sent: mailSent,
      });
    })
    .put('/update/:id', requireUser, smallJsonBody(), mayEditTarget, refuseProtectedChanges, validate('json', profileSchema), (c) => {
      const updated = updateProfile(ctx.db, pathId(c.req.param('id')), c.req.valid('json'), new Date(ctx.now()).toISOString());
      if (!updated) return errorResponse(c, 404, ACCOUNT_MESSAGES.notFound);
      // Keep this request's view current for anything that runs after the handler.
      if (updated.id === c.get('user')?.id) c.set('user', updated);
      return c.json({ user: toPublicUser(updated) });
    });
}
