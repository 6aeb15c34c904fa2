// The face of the support feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { supportFeature } from './routes.ts';
