// The face of the webhooks feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { recordWebhookEvent } from './events.ts';
export type { WebhookEvent } from './events.ts';
export { startWebhookDelivery } from './job.ts';
export { webhooksFeature } from './routes.ts';
export { describeWebhooks, webhookPayloadSchemas, type WebhookDataShapes } from './openapi.ts';
