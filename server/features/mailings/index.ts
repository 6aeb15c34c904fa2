// The face of the mailings feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { classifySendError, startMailingWorker } from './job.ts';
export { countPendingRecipients } from './queries.ts';
export { mailingsFeature } from './routes.ts';
