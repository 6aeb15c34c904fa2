// The face of the two-factor feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { confirmIdentity } from './confirm-identity.ts';
export { twoFactorFeature } from './routes.ts';
