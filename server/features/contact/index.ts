// The face of the contact feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { deleteContactMessagesFrom, listContactMessagesFrom } from './queries.ts';
export { contactFeature } from './routes.ts';
