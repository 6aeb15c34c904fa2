// The face of the license-types feature (docs/architecture.md#where-things-are): what the rest of the server may use.
// Everything else in this folder is the feature's own. The licensing feature builds on it, never the other way.
export { ENTITLEMENT_CODE, MAX_ENTITLEMENTS, entitlementsField, normaliseEntitlements, parseEntitlements, storedEntitlements } from './entitlement-codes.ts';
export { BUILT_IN_DEFAULTS, REQUIRED_LICENSE_TYPES, ensureLicenseTypes } from './ensure-types.ts';
export { presentLicenseType, type LicenseTypeView } from './present.ts';
export { findLicenseTypeByName, getLicenseTypeById, listLicenseTypes } from './queries.ts';
export { DEFAULT_LEASE_MINUTES, MAX_LEASE_MINUTES, MAX_MACHINES_LIMIT, MAX_TYPE_DAYS, licenseTypesFeature } from './routes.ts';
