// The admin console's calls (docs/admin-api.md), typed once. Server types come in as types only
// (DESIGN.md habit 5), so nothing of the server reaches the browser bundle. Polls pass loading: false:
// the full-screen loading modal is for what the admin just asked for, not for background refreshes.
import { api } from '../../lib/api-client.ts';
import type { AdminUser } from '../../../server/admin/admin-user.ts';
import type { SitemapEntry } from '../../../server/admin/sitemap-file.ts';
import type { PublishStatus } from '../../lib/publish-status.ts';
import type { LicenseView } from '../../stores/session.ts';

export type { AdminUser, SitemapEntry };
export type License = LicenseView;
export type { PublishStatus };

export interface LicenseType {
  id: number;
  name: string;
}

export interface AdminData {
  users: AdminUser[];
  licenses: License[];
  license_types: LicenseType[];
}

export interface BannedDomain {
  id: number;
  domain: string;
  created_at: string;
  updated_at: string;
  users: { id: number; email: string }[];
  users_count: number;
}

export interface MailingCounts {
  pending: number;
  sent: number;
  failed: number;
  skipped: number;
  total: number;
}

export interface MailingProblem {
  user_id: number;
  email: string;
  status: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string | null;
}

export interface MailingSummary {
  id: number;
  title: string;
  created_at: string;
  created_by: { id: number; name: string } | null;
  counts: MailingCounts;
  recent_failures: MailingProblem[];
}

export interface SitemapAnswer {
  build_id: string | null;
  file: string | null;
  xml: string | null;
  entries: SitemapEntry[];
  message?: string;
  publish: PublishStatus;
}

/** Every user, every license and the license types: the spec's one load of the admin screen. */
export const loadAdminData = () => api.get<AdminData>('/api/license/getAll');

// Users
export type UserEdit = Partial<Record<'name' | 'surname' | 'companyName' | 'email' | 'address' | 'postcode' | 'county' | 'country' | 'phone' | 'vat' | 'role', string>> & {
  email_verified_at?: boolean;
};
export const updateUser = (id: number, data: UserEdit) => api.put<{ message: string; user: AdminUser }>(`/api/user/update/${id}`, data);
export const deleteUser = (id: number) => api.delete<{ message: string; id: number }>(`/api/user/delete/${id}`);
export const setBanned = (id: number, banned: boolean) => api.put<{ message: string; user: AdminUser }>(`/api/user/suspend/${id}`, { is_banned: banned ? 1 : 0, id });

// Licenses
export interface LicenseInput {
  license_type_id: number | '';
  user_id: number;
  active?: 0 | 1;
  expire?: string;
}
export interface LicenseAnswer {
  message: string;
  license: License;
  user: AdminUser;
  granted: boolean;
  mail_sent: boolean | null;
}
export const storeLicense = (data: LicenseInput) => api.post<LicenseAnswer>('/api/license/store', data);
export const updateLicense = (id: number, data: LicenseInput) => api.put<LicenseAnswer>(`/api/license/update/${id}`, data);
export const deleteLicense = (id: number) => api.delete<{ message: string; id: number; user: AdminUser | null }>(`/api/license/delete/${id}`);

// Banned domains
export const listBannedDomains = () => api.get<BannedDomain[]>('/api/admin/banned-domains', { loading: false });
export const banDomain = (domain: string) => api.post<{ message: string; domain: BannedDomain }>('/api/admin/banned-domains/store', { domain });
export const unbanDomain = (id: number) => api.delete<{ message: string; id: number }>(`/api/admin/banned-domains/delete/${id}`);

// Mailings
export const ALL_VERIFIED = 'all-verified';
export const sendMailing = (data: { users: number[] | typeof ALL_VERIFIED; title: string; body: string }) =>
  api.post<{ message: string; mailing: MailingSummary; skipped: { unsubscribed: number; banned: number } }>('/api/admin/sendmailing', data);
export const listMailings = () => api.get<{ mailings: MailingSummary[] }>('/api/admin/mailings', { loading: false });

// Publishing and the sitemap
export const publishNow = () => api.post<PublishStatus>('/api/admin/publish', undefined, { loading: false });
export const regenerateSitemap = () => api.post<{ message: string; publish: PublishStatus }>('/api/admin/sitemap', undefined, { loading: false });
export const fetchSitemap = () => api.get<SitemapAnswer>('/api/admin/sitemap', { loading: false });
