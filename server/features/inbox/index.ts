// The face of the inbox feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { countUnreadInbox } from './queries.ts';
export { inboxFeature } from './routes.ts';
