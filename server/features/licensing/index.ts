// The face of the licensing feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own.
export { AUTO_GRANT_TRIAL_DAYS, grantTrialAutomatically } from './auto-grant.ts';
export { recordLicenseEvent } from './events.ts';
export { licenseKind } from './license-dates.ts';
export { answerLicenseWrite, storeLicenseAsAdmin } from './license-writes.ts';
export { sendLicenseGrantedMail } from './mails.ts';
export { describeLicensingApi } from './openapi.ts';
export { presentLicenseEvents, presentLicenses } from './present.ts';
export {
  backfillLicenseRequests,
  closeOpenLicenseRequests,
  ensureLicenseTypes,
  getLicensesOfUser,
  hasActiveLicense,
  insertLicenseRequest,
  listLicenseRequestsOfUser,
  listLicenseTypes,
  listLicensesOfUsers,
} from './queries.ts';
export { MAX_EXPIRE_DAYS, licensingFeature } from './routes.ts';
export { createKeyringSource } from './signing-keys.ts';
export type { Keyring } from './signing-keys.ts';
