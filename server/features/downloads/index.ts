// The face of the downloads feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export {
  BETA_ENTITLEMENT_CODE,
  decideGate,
  decideReleaseAccess,
  requiredEntitlements,
  type GateCode,
  type ReleaseAccess,
  type ReleaseHolder,
} from './access.ts';
export { startReleaseDigests, RELEASE_DIGESTS_INTERVAL_MS } from './job.ts';
export { presentRelease, presentReleaseFile, type ReleaseFileView, type ReleaseView } from './present.ts';
export {
  getReleaseFileById,
  getReleaseWithFiles,
  insertDownloadItem,
  insertReleaseFile,
  listDownloadItems,
  listVersionedReleases,
  type ReleaseWithFiles,
} from './queries.ts';
export { downloadsFeature } from './routes.ts';
export { sendReleaseFile, type Downloader } from './send.ts';
