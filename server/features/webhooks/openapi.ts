// The webhooks as OpenAPI 3.1 describes them (its `webhooks` object, shown on GET /api/reference), so the
// people wiring the shop or the CRM to the site read each event's body and headers where they read the API,
// without this repository (docs/integrations.md#events is the prose). The user, license and release shapes are
// the integrations API's own schemas, handed in by the document that puts the features together, because
// `data` is the object that API answers for the same thing.
import { z, type OpenAPIHono } from '@hono/zod-openapi';
import type { WebhookEvent } from '../../../common/integrations.ts';
import { PING_EVENT } from './events.ts';
import { WEBHOOK_GIVE_UP_MS, WEBHOOK_RETRY_DELAYS_MS } from './job.ts';
import { WEBHOOK_TIMEOUT_MS } from './send.ts';

/** The integrations API's schemas of the things events carry. */
export interface WebhookDataShapes {
  user: z.ZodTypeAny;
  license: z.ZodTypeAny;
  release: z.ZodTypeAny;
}

type Documented = WebhookEvent | typeof PING_EVENT;

/** When each event is sent, and its `data`. A Record, so an event added to WEBHOOK_EVENTS without a line here fails the type check. */
function eventDocs(shapes: WebhookDataShapes): Record<Documented, { when: string; data: z.ZodTypeAny }> {
  const machine = z.object({ id: z.number().int(), fingerprint: z.string(), name: z.string().nullable() }).passthrough();
  const machineEvent = z.object({ license_id: z.number().int(), machine });
  return {
    'license.created': { when: 'A license is granted or stored: the admin console, the inbox, an automatic trial or the API.', data: shapes.license },
    'license.updated': { when: 'An admin or the API changes a license (an extension included).', data: shapes.license },
    'license.suspended': { when: 'An admin or the API suspends a license.', data: shapes.license },
    'license.unsuspended': { when: 'An admin or the API lifts a suspension.', data: shapes.license },
    'license.expired': { when: 'A license passes its end (within a minute; again after an extension and a new end).', data: shapes.license },
    'machine.activated': { when: 'The software, its owner or an admin takes a seat of a license.', data: machineEvent },
    'machine.deactivated': { when: 'The software, its owner or an admin frees a seat.', data: machineEvent },
    'user.created': { when: 'Someone registers, or the API creates a user.', data: shapes.user },
    'user.verified': { when: 'A user proves their address (the verification link or a password reset).', data: shapes.user },
    'user.deleted': { when: 'An admin deletes a user, or a user their own account: the user as it was.', data: shapes.user },
    'release.published': { when: 'A release becomes downloadable.', data: shapes.release },
    'contact.received': {
      when: 'The contact form is sent.',
      data: z.object({ id: z.number().int(), name: z.string(), email: z.string(), message: z.string(), created_at: z.string() }),
    },
    'license_request.created': {
      when: 'A user presses Request License.',
      data: z.object({ id: z.number().int(), user: shapes.user, created_at: z.string() }),
    },
    [PING_EVENT]: {
      when: 'The Send test button of the Integrations screen; only to that endpoint, whatever it subscribed to.',
      data: z.object({ webhook_id: z.number().int(), message: z.string() }),
    },
  };
}

/** The body of one event, `{ type, timestamp, data }` (Standard Webhooks' shape): what receivers are sent. */
function payloadSchema(event: Documented, data: z.ZodTypeAny): z.ZodTypeAny {
  return z.object({ type: z.literal(event), timestamp: z.string().describe('When the change happened, ISO 8601.'), data }).strict();
}

/** Each event's body, as GET /api/openapi.json documents it. */
export function webhookPayloadSchemas(shapes: WebhookDataShapes): Record<Documented, z.ZodTypeAny> {
  const docs = eventDocs(shapes);
  const payloads = {} as Record<Documented, z.ZodTypeAny>;
  for (const event of Object.keys(docs) as Documented[]) payloads[event] = payloadSchema(event, docs[event].data);
  return payloads;
}

/** 30 s, 2 min, 1 h: the delays as a reader says them. */
function spoken(ms: number): string {
  if (ms < 60_000) return `${ms / 1000} s`;
  return ms < 3_600_000 ? `${ms / 60_000} min` : `${ms / 3_600_000} h`;
}
const repeatedDelay = WEBHOOK_RETRY_DELAYS_MS[WEBHOOK_RETRY_DELAYS_MS.length - 1] as number;
const ANSWERS = {
  '2XX': { description: 'Ends the delivery.' },
  default: {
    description:
      `Anything else (a redirect too: none is followed), or no answer within ${spoken(WEBHOOK_TIMEOUT_MS)}, is tried again after ` +
      `${WEBHOOK_RETRY_DELAYS_MS.slice(0, -1).map(spoken).join(', ')}, then every ${spoken(repeatedDelay)}; given up ${spoken(WEBHOOK_GIVE_UP_MS)} after the event.`,
  },
};

const signatureHeaders = z.object({
  'webhook-id': z.string().describe('The message id, the same on every attempt: deduplicate on it.'),
  'webhook-timestamp': z.string().describe('Seconds since the epoch, when this attempt was signed.'),
  'webhook-signature': z
    .string()
    .describe("v1, and then the base64 HMAC-SHA256 of id.timestamp.body (the raw body) keyed with the endpoint's secret whsec_… (Standard Webhooks)."),
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any app's registry takes these webhooks
export function describeWebhooks(doc: OpenAPIHono<any>, shapes: WebhookDataShapes): void {
  const docs = eventDocs(shapes);
  for (const event of Object.keys(docs) as Documented[]) {
    doc.openAPIRegistry.registerWebhook({
      method: 'post',
      path: event,
      summary: docs[event].when,
      tags: ['Webhooks'],
      request: { headers: signatureHeaders, body: { required: true, content: { 'application/json': { schema: payloadSchema(event, docs[event].data) } } } },
      responses: ANSWERS,
    });
  }
}
