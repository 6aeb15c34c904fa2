// The face of the downloads feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { presentRelease } from './present.ts';
export { insertDownloadItem, listDownloadItems } from './queries.ts';
export { downloadsFeature } from './routes.ts';
