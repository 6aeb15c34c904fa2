// The face of the content feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { insertPost, insertSection } from './queries.ts';
export { contentFeature } from './routes.ts';
