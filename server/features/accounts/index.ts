// The face of the accounts feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { emailRefusal } from './email-availability.ts';
export { deletePasswordResetToken } from './queries.ts';
export { accountsFeature, mailPasswordLink } from './routes.ts';
