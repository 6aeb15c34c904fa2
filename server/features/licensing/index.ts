// The face of the licensing feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own. License types are the license-types feature's.
export { AUTO_GRANT_TRIAL_DAYS, grantTrialAutomatically } from './auto-grant.ts';
export { recordLicenseEvent } from './events.ts';
export { licenseKind } from './license-dates.ts';
// What a license gives: the one computation of its effective entitlements and maintenance window (issue 24, item 2),
// for every answer, every file, and the release and update feeds to come.
export { coveredByMaintenance, licenseTerms, missingEntitlements, type LicenseTerms } from './license-terms.ts';
// What a license lets its holder download (issue 25): the release-access decision of the downloads feature reads it.
export { grantOfKey, grantOfLicense, grantOfLicenseId, grantsOfUser, type LicenseGrant } from './license-grants.ts';
export { licenseStatus } from './license-status.ts';
export { answerLicenseWrite, storeLicenseAsAdmin, updateLicenseAsAdmin } from './license-writes.ts';
export { sendLicenseGrantedMail } from './mails.ts';
export { describeLicensingApi } from './openapi.ts';
export { presentLicenseEvents, presentLicenses } from './present.ts';
export { getLicenseWithType } from './queries.ts';
export {
  backfillLicenseRequests,
  closeOpenLicenseRequests,
  getLicensesOfUser,
  hasActiveLicense,
  insertLicenseRequest,
  listLicenseRequestsOfUser,
  listLicensesOfUsers,
} from './queries.ts';
export { MAX_EXPIRE_DAYS, licensingFeature } from './routes.ts';
export { announceExpiredLicenses } from './webhooks.ts';
