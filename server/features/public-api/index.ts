// The face of the public-api feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { describePublicApi, publicApiFeature } from './routes.ts';
export { PUBLIC_API_SHAPES } from './schemas.ts';
