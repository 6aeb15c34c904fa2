// The face of the banned-domains feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { emailDomain, isDomainBanned } from './queries.ts';
export { bannedDomainsFeature } from './routes.ts';
