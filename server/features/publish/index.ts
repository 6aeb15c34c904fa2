// The face of the publish feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { presentPublishStatus } from './present.ts';
export { publishFeature } from './routes.ts';
