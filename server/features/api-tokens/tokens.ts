// API tokens (docs/integrations.md#api-tokens): `dct_` and 32 random bytes, shown once; only the SHA-256 is
// stored, so a database leak yields no usable token. Scopes say what a token may do.
import { createHash, randomBytes } from 'node:crypto';

export const API_TOKEN_PREFIX = 'dct_';
export { API_SCOPES, type ApiScope } from '../../../common/integrations.ts';

export function newApiToken(): string {
  return `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
