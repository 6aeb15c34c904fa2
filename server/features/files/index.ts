// The face of the files feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { getUploadedFile } from './queries.ts';
export { filesFeature } from './routes.ts';
