// Endpoints and deliveries as the Integrations screen receives them (docs/integrations.md#webhooks). The
// secret is never in these: POST answers it once, beside the endpoint.
import type { WebhookDelivery, WebhookEndpoint } from '../../db/schema.ts';
import { parseJsonStrings } from '../../http/json.ts';

export function presentEndpoint(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: parseJsonStrings(endpoint.events),
    description: endpoint.description,
    enabled: endpoint.enabled,
    failing_since: endpoint.failing_since,
    disabled_reason: endpoint.disabled_reason,
    created_at: endpoint.created_at,
    updated_at: endpoint.updated_at,
  };
}

export function presentDelivery(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    event: delivery.event,
    attempts: delivery.attempts,
    last_status: delivery.last_status,
    last_error: delivery.last_error,
    created_at: delivery.created_at,
    next_attempt_at: delivery.next_attempt_at === null ? null : new Date(delivery.next_attempt_at).toISOString(),
    delivered_at: delivery.delivered_at,
    failed_at: delivery.failed_at,
  };
}
