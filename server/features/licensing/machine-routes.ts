// Machines and history from the browser (docs/licensing.md; issue 12, items 6 and 7; issue 24, item 5): the
// owner deactivates a machine, downloads a machine-bound file for an offline machine and reads the license's
// history (mounted at /api/user/licenses); an admin deactivates any machine and reads a license's events
// (mounted at /api/license). Session and XSRF like every account call; the seats and events are those of the
// software's API (activation.ts).
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin, requireUser } from '../../auth/guards.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse } from '../../http/errors.ts';
import { pathId } from '../../http/fields.ts';
import { fingerprintField, optionalText } from './api-routes.ts';
import { validate } from '../../http/validate.ts';
import { activateMachine, deactivateMachine, issueFileFor, type Actor } from './activation.ts';
import { LICENSING_MESSAGES, REFUSAL_STATUS } from './api-routes.ts';
import { presentLicenseEvents } from './present.ts';
import { getLicenseWithType, listLicenseEvents } from './queries.ts';

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
    .get('/:licenseId/events', requireUser, (c) => {
      // The owner's history in words (the dashboard's license card): the same events the admins read,
      // without the acting admin's name (presentLicenseEvents).
      const user = c.get('user');
      const license = user && ownLicense(user.id, c.req.param('licenseId'));
      if (!user || !license) return errorResponse(c, 404, MACHINE_MESSAGES.licenseNotFound);
      return c.json({ events: presentLicenseEvents(ctx.db, license, user) });
    })
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
