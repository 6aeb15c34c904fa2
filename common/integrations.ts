// Names both sides of the integrations use (docs/integrations.md): the events a webhook endpoint may subscribe
// to and the scopes of an API token. The server validates against them; the Integrations screen offers them.

export const WEBHOOK_EVENTS = [
  'license.created',
  'license.updated',
  'license.suspended',
  'license.unsuspended',
  'license.expired',
  'machine.activated',
  'machine.deactivated',
  'user.created',
  'user.verified',
  'user.deleted',
  'release.published',
  'contact.received',
  'license_request.created',
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const API_SCOPES = ['users:read', 'users:write', 'licenses:read', 'licenses:write', 'releases:read'] as const;
export type ApiScope = (typeof API_SCOPES)[number];
