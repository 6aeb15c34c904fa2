// The Integrations screen's calls (docs/integrations.md): webhooks and API tokens. Answer types are read from
// the server's routers (docs/decisions/0021-typed-api-client.md).
import type { webhookAdminRoutes } from '../../../server/features/webhooks/routes.ts';
import type { apiTokenAdminRoutes } from '../../../server/features/api-tokens/routes.ts';
import { api } from './request.ts';
import type { Answer } from './route-types.ts';

export type Webhook = Answer<typeof webhookAdminRoutes, '/', '$get'>['webhooks'][number];
export type CreatedWebhook = Answer<typeof webhookAdminRoutes, '/', '$post'>['webhook'];
export type WebhookDelivery = Answer<typeof webhookAdminRoutes, '/:id{[0-9]+}/deliveries', '$get'>['deliveries'][number];
export type ApiToken = Answer<typeof apiTokenAdminRoutes, '/', '$get'>['api_tokens'][number];

/** What the forms offer: the server's own lists (common/integrations.ts), in the order they are offered. */
export { WEBHOOK_EVENTS as WEBHOOK_EVENT_NAMES, API_SCOPES as API_SCOPE_NAMES } from '../../../common/integrations.ts';

const loadOnly = { loading: false } as const;

export const listWebhooks = () => api.get<{ webhooks: Webhook[] }>('/api/admin/webhooks', loadOnly).then((answer) => answer.webhooks);
export const createWebhook = (input: { url: string; events: string[]; description: string }) =>
  api.post<{ webhook: CreatedWebhook }>('/api/admin/webhooks', input);
export const updateWebhook = (id: number, input: Partial<{ url: string; events: string[]; description: string; enabled: 0 | 1 }>) =>
  api.put<{ webhook: Webhook }>(`/api/admin/webhooks/${id}`, input);
export const deleteWebhook = (id: number) => api.delete<{ message: string }>(`/api/admin/webhooks/${id}`);
export const pingWebhook = (id: number) => api.post<{ ok: boolean; delivery: WebhookDelivery | null }>(`/api/admin/webhooks/${id}/test`);
export const listDeliveries = (id: number) =>
  api.get<{ deliveries: WebhookDelivery[] }>(`/api/admin/webhooks/${id}/deliveries`, loadOnly).then((answer) => answer.deliveries);
export const retryDelivery = (id: number, deliveryId: string) =>
  api.post<{ message: string }>(`/api/admin/webhooks/${id}/deliveries/${encodeURIComponent(deliveryId)}/retry`);

export const listApiTokens = () => api.get<{ api_tokens: ApiToken[] }>('/api/admin/api-tokens', loadOnly).then((answer) => answer.api_tokens);
export const createApiToken = (input: { name: string; scopes: string[]; expires_days: number }) =>
  api.post<{ token: string; api_token: ApiToken }>('/api/admin/api-tokens', input);
export const revokeApiToken = (id: number) => api.delete<{ message: string }>(`/api/admin/api-tokens/${id}`);
