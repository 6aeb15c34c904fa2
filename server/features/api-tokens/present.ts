// An API token as the Integrations screen lists it: never the token or its hash.
import type { ApiToken } from '../../db/schema.ts';
import { parseJsonStrings } from '../../http/json.ts';

export function presentApiToken(token: ApiToken) {
  return {
    id: token.id,
    name: token.name,
    scopes: parseJsonStrings(token.scopes),
    created_at: token.created_at,
    expires_at: token.expires_at,
    last_used_at: token.last_used_at,
    revoked_at: token.revoked_at,
  };
}
