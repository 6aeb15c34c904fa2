// The admin console's calls (docs/admin-api.md). Polls pass loading: false: the full-screen loading modal
// is for what the admin just asked for, not for background refreshes.
import type { adminUserRoutes } from '../../../server/features/users/routes.ts';
import type { bannedDomainRoutes } from '../../../server/features/banned-domains/routes.ts';
import type { licenseRoutes } from '../../../server/features/licensing/routes.ts';
import type { adminMachineRoutes } from '../../../server/features/licensing/machine-routes.ts';
import type { licenseTypesFeature } from '../../../server/features/license-types/routes.ts';
import type { licensingSettingsRoutes } from '../../../server/features/licensing/routes.ts';
import type { securitySettingsRoutes } from '../../../server/features/two-factor/routes.ts';
import type { mailingRoutes, ALL_VERIFIED as SERVER_ALL_VERIFIED } from '../../../server/features/mailings/routes.ts';
import type { sitemapRoutes } from '../../../server/features/sitemap/routes.ts';
import { api } from './request.ts';
import type { Answer, WithDefined } from './route-types.ts';

export type AdminData = Answer<typeof licenseRoutes, '/getAll', '$get'>;
export type AdminUser = AdminData['users'][number];
export type License = AdminData['licenses'][number];
export type LicenseType = AdminData['license_types'][number];
export type LicenseMachine = License['machines'][number];
export type LicenseEvent = Answer<typeof adminMachineRoutes, '/:licenseId/events', '$get'>['events'][number];
export type LicensingSettings = Answer<typeof licensingSettingsRoutes, '/', '$get'>;
export type SecuritySettings = Answer<typeof securitySettingsRoutes, '/', '$get'>;
export type LicenseAnswer = WithDefined<Answer<typeof licenseRoutes, '/store', '$post'>, 'license'>;
export type BannedDomain = Answer<typeof bannedDomainRoutes, '/', '$get'>[number];
export type MailingSummary = Answer<typeof mailingRoutes, '/mailings', '$get'>['mailings'][number];
export type MailingCounts = MailingSummary['counts'];
export type SitemapAnswer = Answer<typeof sitemapRoutes, '/', '$get'>;
export type SitemapEntry = SitemapAnswer['entries'][number];

/** Every user, every license and the license types: the one load of the admin screen. */
export const loadAdminData = () => api.get<AdminData>('/api/license/getAll');

// Users
export type UserEdit = Partial<
  Record<'name' | 'surname' | 'companyName' | 'email' | 'address' | 'postcode' | 'county' | 'country' | 'phone' | 'vat' | 'role', string>
> & {
  email_verified_at?: boolean;
};
// These handlers answer through shared helpers the compiler cannot follow; the user is the getAll one.
type UserWritten = { message: string; user: AdminUser };
export const updateUser = (id: number, data: UserEdit) => api.put<UserWritten>(`/api/user/update/${id}`, data);
export const deleteUser = (id: number) => api.delete<Answer<typeof adminUserRoutes, '/delete/:id', '$delete'>>(`/api/user/delete/${id}`);
export const setBanned = (id: number, banned: boolean) => api.put<UserWritten>(`/api/user/suspend/${id}`, { is_banned: banned ? 1 : 0, id });

// Licenses
export interface LicenseInput {
  license_type_id: number | '';
  user_id: number;
  active?: 0 | 1;
  expire?: string;
  /** 1..1000; left out, a new license gets its type's. */
  max_machines?: string;
  suspended?: 0 | 1;
  /** The license's own entitlement codes, added to its type's. */
  entitlements?: string[];
  /** YYYY-MM-DD, null for no limit; '' or left out: the grant date plus the type's maintenance days. */
  maintenance_until?: string | null;
}
export const storeLicense = (data: LicenseInput) => api.post<LicenseAnswer>('/api/license/store', data);
/** Fields left out keep their stored values (e.g. `{ suspended: 1 }` alone suspends). */
export const updateLicense = (id: number, data: Partial<LicenseInput>) => api.put<LicenseAnswer>(`/api/license/update/${id}`, data);
export const deleteLicense = (id: number) => api.delete<{ message: string; id: number; user: AdminUser | null }>(`/api/license/delete/${id}`);

/** DELETE /api/license/{licenseId}/machines/{machineId} (204): frees any machine's seat. */
export async function deactivateLicenseMachine(licenseId: number, machineId: number): Promise<void> {
  await api.delete<unknown>(`/api/license/${licenseId}/machines/${machineId}`);
}
/** The license's events, newest first (who, what, when). */
export const listLicenseEvents = (licenseId: number) =>
  api.get<Answer<typeof adminMachineRoutes, '/:licenseId/events', '$get'>>(`/api/license/${licenseId}/events`, { loading: false });

// License types (docs/admin-api.md#license-types)
type TypesAnswer = Answer<typeof licenseTypesFeature, '/api/license/types', '$get'>;
export type LicenseTypeView = TypesAnswer['license_types'][number];
export interface LicenseTypeInput {
  name: string;
  entitlements: string[];
  max_machines: string;
  duration_days: string;
  maintenance_days: string;
  floating: 0 | 1;
  lease_minutes: string;
}
type TypeWritten = { message: string; license_type: LicenseTypeView };
export const listLicenseTypeViews = () => api.get<TypesAnswer>('/api/license/types', { loading: false });
export const createLicenseType = (data: LicenseTypeInput) => api.post<TypeWritten>('/api/license/types', data);
export const updateLicenseType = (id: number, data: Partial<LicenseTypeInput>) => api.put<TypeWritten>(`/api/license/types/${id}`, data);
export const deleteLicenseType = (id: number) => api.delete<{ message: string; id: number }>(`/api/license/types/${id}`);

// Licensing settings (docs/admin-api.md#licensing-settings)
export const loadLicensingSettings = () => api.get<LicensingSettings>('/api/admin/licensing-settings', { loading: false });
export interface LicensingSettingsInput {
  auto_grant_trials: 0 | 1;
}
export const saveLicensingSettings = (data: LicensingSettingsInput) =>
  api.put<Answer<typeof licensingSettingsRoutes, '/', '$put'>>('/api/admin/licensing-settings', data);

// Security settings (docs/admin-api.md#security-settings)
export const loadSecuritySettings = () => api.get<SecuritySettings>('/api/admin/security-settings', { loading: false });
export const saveSecuritySettings = (data: SecuritySettings) =>
  api.put<Answer<typeof securitySettingsRoutes, '/', '$put'>>('/api/admin/security-settings', data);

// Banned domains
export const listBannedDomains = () => api.get<BannedDomain[]>('/api/admin/banned-domains', { loading: false });
export const banDomain = (domain: string) =>
  api.post<WithDefined<Answer<typeof bannedDomainRoutes, '/store', '$post'>, 'domain'>>('/api/admin/banned-domains/store', { domain });
export const unbanDomain = (id: number) => api.delete<Answer<typeof bannedDomainRoutes, '/delete/:id', '$delete'>>(`/api/admin/banned-domains/delete/${id}`);

// Mailings
/** The recipients value meaning every verified user: repeated (values stay server-side), checked against the server's. */
export const ALL_VERIFIED: typeof SERVER_ALL_VERIFIED = 'all-verified';
export const sendMailing = (data: { users: number[] | typeof ALL_VERIFIED; title: string; body: string }) =>
  api.post<WithDefined<Answer<typeof mailingRoutes, '/sendmailing', '$post'>, 'mailing'>>('/api/admin/sendmailing', data);
export const listMailings = () => api.get<Answer<typeof mailingRoutes, '/mailings', '$get'>>('/api/admin/mailings', { loading: false });

// The sitemap
export const regenerateSitemap = () => api.post<Answer<typeof sitemapRoutes, '/', '$post'>>('/api/admin/sitemap', undefined, { loading: false });
export const fetchSitemap = () => api.get<SitemapAnswer>('/api/admin/sitemap', { loading: false });
