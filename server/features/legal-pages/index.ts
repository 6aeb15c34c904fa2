// The face of the legal-pages feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { ensureLegalPages } from './queries.ts';
export { legalPagesFeature } from './routes.ts';
