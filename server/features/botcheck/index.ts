// The face of the botcheck feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { botcheckFeature } from './routes.ts';
