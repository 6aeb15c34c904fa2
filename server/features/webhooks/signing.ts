// Standard Webhooks signatures (docs/integrations.md#verifying-our-webhooks): `webhook-signature: v1,<base64 of
// HMAC-SHA256 over "id.timestamp.body">` with the endpoint's secret `whsec_<base64 key>`; the timestamp is in
// seconds. Receivers verify with any Standard Webhooks library (tests use the `standardwebhooks` package).
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new endpoint secret: 24 random bytes, as the specification's libraries make them. */
export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(24).toString('base64')}`;
}

export function signatureHeaders(secret: string, messageId: string, atSeconds: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const signature = createHmac('sha256', key).update(`${messageId}.${atSeconds}.${body}`).digest('base64');
  return { 'webhook-id': messageId, 'webhook-timestamp': String(atSeconds), 'webhook-signature': `v1,${signature}` };
}
