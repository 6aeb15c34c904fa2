// The face of the profile feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { profileFeature } from './routes.ts';
