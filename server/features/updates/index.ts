// The face of the updates feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { flushUpdateChecks } from './api-routes.ts';
export { describeUpdatesApi } from './openapi.ts';
export { updatesFeature } from './routes.ts';
