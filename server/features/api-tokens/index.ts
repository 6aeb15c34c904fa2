// The face of the api-tokens feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { API_V1_PREFIX, apiTokenGuard, idempotent, requireScope, tokenOf } from './guard.ts';
export { apiTokensFeature } from './routes.ts';
export { API_SCOPES } from './tokens.ts';
