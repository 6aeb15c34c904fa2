// Webhooks an admin manages under Integrations (docs/integrations.md#webhooks), mounted at /api/admin/webhooks:
// endpoints (the secret shown once, at creation), a test ping sent at once, and each endpoint's deliveries
// with a Retry. Admin only, like every /api/admin route.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppContext, AppEnv } from '../../context.ts';
import { requireAdmin } from '../../auth/guards.ts';
import { encryptSecret } from '../../auth/secret-box.ts';
import { writeTransaction } from '../../db/client.ts';
import { smallJsonBody } from '../../http/body-limit.ts';
import { errorResponse } from '../../http/errors.ts';
import { flagField, parseId, required, tooLong } from '../../http/fields.ts';
import { validate } from '../../http/validate.ts';
import { newMessageId, PING_EVENT, WEBHOOK_EVENTS, webhookBody } from './events.ts';
import { attempt } from './job.ts';
import { presentDelivery, presentEndpoint } from './present.ts';
import {
  deleteEndpoint,
  getDelivery,
  getEndpoint,
  insertDeliveries,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  markAttemptFailed,
  markDelivered,
  scheduleRetryNow,
  setEndpointSecret,
  updateEndpoint,
} from './queries.ts';
import { newWebhookSecret } from './signing.ts';
import { urlProblem } from './destination.ts';

export const WEBHOOK_MESSAGES = {
  notFound: 'Webhook endpoint not found.',
  deliveryNotFound: 'Delivery not found.',
  deleted: 'Webhook endpoint deleted.',
  retrying: 'The delivery will be sent again in a moment.',
  unknownEvent: (event: string) => `Unknown event: ${event}.`,
} as const;

/** Deliveries listed per endpoint, newest first. */
export const DELIVERIES_LISTED = 100;

const urlField = z
  .string({ error: required('url') })
  .trim()
  .min(1, required('url'))
  .superRefine((text, context) => {
    const problem = urlProblem(text);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });
const eventsField = z
  .array(z.string({ error: 'Each event must be a string.' }), { error: 'The events field must be a list of event names.' })
  .min(1, 'Choose at least one event.')
  .max(WEBHOOK_EVENTS.length)
  .superRefine((events, context) => {
    for (const event of events)
      if (!(WEBHOOK_EVENTS as readonly string[]).includes(event)) context.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.unknownEvent(event) });
  })
  .transform((events) => [...new Set(events)]);
const descriptionField = z.string({ error: 'The description must be text.' }).trim().max(500, tooLong('description', 500));

const createSchema = z.object({ url: urlField, events: eventsField, description: descriptionField.default('') });
const updateSchema = z.object({
  url: urlField.optional(),
  events: eventsField.optional(),
  description: descriptionField.optional(),
  enabled: flagField('enabled').optional(),
});

export function webhookAdminRoutes(ctx: AppContext) {
  const nowIso = () => new Date(ctx.now()).toISOString();
  const endpointOf = (c: Context<AppEnv>) => {
    const id = parseId(c.req.param('id'));
    return id === null ? undefined : getEndpoint(ctx.db, id);
  };

  return new Hono<AppEnv>()
    .get('/', requireAdmin, (c) => c.json({ webhooks: listEndpoints(ctx.db).map(presentEndpoint) }))
    .post('/', requireAdmin, smallJsonBody(), validate('json', createSchema), (c) => {
      const input = c.req.valid('json');
      const secret = newWebhookSecret();
      const endpoint = writeTransaction(ctx.db, () => {
        const created = insertEndpoint(ctx.db, { ...input, enabled: true }, nowIso());
        setEndpointSecret(ctx.db, created.id, encryptSecret(ctx.config, secret, `webhook:${created.id}`));
        return created;
      });
      ctx.log.info(`Webhook endpoint ${endpoint.id} created by user ${c.get('user')?.id ?? '?'}`);
      // The only time the secret leaves the server: the admin copies it into the receiver now.
      return c.json({ webhook: { ...presentEndpoint(endpoint), secret } }, 201);
    })
    .put('/:id{[0-9]+}', requireAdmin, smallJsonBody(), validate('json', updateSchema), (c) => {
      const existing = endpointOf(c);
      if (!existing) return errorResponse(c, 404, WEBHOOK_MESSAGES.notFound);
      const { enabled, ...rest } = c.req.valid('json');
      const updated = updateEndpoint(ctx.db, existing.id, { ...rest, ...(enabled === undefined ? {} : { enabled: enabled === 1 }) }, nowIso());
      if (!updated) return errorResponse(c, 404, WEBHOOK_MESSAGES.notFound);
      // Switched (back) on: deliveries that waited while it was off go now, not at the job's next tick.
      if (enabled === 1) ctx.wake('webhooks');
      return c.json({ webhook: presentEndpoint(updated) });
    })
    .delete('/:id{[0-9]+}', requireAdmin, (c) => {
      const existing = endpointOf(c);
      if (!existing || !deleteEndpoint(ctx.db, existing.id)) return errorResponse(c, 404, WEBHOOK_MESSAGES.notFound);
      return c.json({ message: WEBHOOK_MESSAGES.deleted });
    })
    .post('/:id{[0-9]+}/test', requireAdmin, async (c) => {
      const endpoint = endpointOf(c);
      if (!endpoint) return errorResponse(c, 404, WEBHOOK_MESSAGES.notFound);
      // Sent now, in this request, so the admin sees the receiver's answer; recorded like any delivery.
      const now = ctx.now();
      const id = newMessageId();
      const payload = webhookBody(PING_EVENT, { webhook_id: endpoint.id, message: 'A test event from the Integrations screen.' }, now);
      // Not due for the delivery job (no next attempt): this request sends it, so it never goes out twice.
      insertDeliveries(ctx.db, [{ id, endpoint_id: endpoint.id, event: PING_EVENT, payload, next_attempt_at: null }], nowIso());
      const result = await attempt(ctx, { id, endpoint_id: endpoint.id, url: endpoint.url, secret: endpoint.secret, payload });
      if (result.ok) markDelivered(ctx.db, id, { status: result.status, atIso: nowIso() });
      // A failed ping is not retried: it was a question for the admin, who has the answer.
      else markAttemptFailed(ctx.db, id, { status: result.status, error: result.error, retryAt: null, atIso: nowIso() });
      const delivery = getDelivery(ctx.db, endpoint.id, id);
      return c.json({ delivery: delivery ? presentDelivery(delivery) : null, ok: result.ok });
    })
    .get('/:id{[0-9]+}/deliveries', requireAdmin, (c) => {
      const endpoint = endpointOf(c);
      if (!endpoint) return errorResponse(c, 404, WEBHOOK_MESSAGES.notFound);
      return c.json({ deliveries: listDeliveries(ctx.db, endpoint.id, DELIVERIES_LISTED).map(presentDelivery) });
    })
    .post('/:id{[0-9]+}/deliveries/:deliveryId/retry', requireAdmin, (c) => {
      const endpoint = endpointOf(c);
      const delivery = endpoint && getDelivery(ctx.db, endpoint.id, c.req.param('deliveryId'));
      if (!endpoint || !delivery) return errorResponse(c, 404, WEBHOOK_MESSAGES.deliveryNotFound);
      scheduleRetryNow(ctx.db, delivery.id, ctx.now());
      ctx.wake('webhooks');
      const again = getDelivery(ctx.db, endpoint.id, delivery.id);
      return c.json({ message: WEBHOOK_MESSAGES.retrying, delivery: again ? presentDelivery(again) : null }, 202);
    });
}

/** The webhooks feature as server/app.ts mounts it: the admin's endpoints and deliveries, at full paths. */
export function webhooksFeature(ctx: AppContext) {
  return new Hono<AppEnv>().route('/api/admin/webhooks', webhookAdminRoutes(ctx));
}
