// The face of the passkeys feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// The two-factor feature's second step takes a passkey through acceptPasskeySecondFactor; the own-data export
// lists passkeys by name and dates. Everything else in this folder is the feature's own.
export { passkeysFeature } from './routes.ts';
export { acceptPasskeySecondFactor } from './second-factor.ts';
export { authenticationResponseField } from './fields.ts';
export { presentPasskeysForExport } from './present.ts';
export { listPasskeysOfUser } from './queries.ts';
