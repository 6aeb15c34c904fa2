// The whole schema, the one module the rest of the server, drizzle-kit (drizzle.config.ts) and Drizzle's
// client read. Its parts refer to the core tables and never to this file, so no part waits on another
// half-loaded one.
// The data model of docs/product/data-model.md: users, content, licenses, downloads, settings.
export * from './schema-core.ts';
// The integrations' tables (webhooks, API tokens, idempotency; docs/integrations.md).
export * from './schema-integrations.ts';
// The files of releases and the update and download counts (issue 25; docs/updates.md).
export * from './schema-releases.ts';
