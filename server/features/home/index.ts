// The face of the home feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { HOME_IMAGE_VARIANTS, insertHomeImage, insertHomeSection } from './queries.ts';
export { homeFeature } from './routes.ts';
