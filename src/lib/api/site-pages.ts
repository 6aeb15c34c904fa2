// The site's own pages an admin edits in place (issue 28, section 1): the legal pages (server/features/legal-pages) and the
// contact details on /contact (server/features/contact).
import type { legalPagesRoutes } from '../../../server/features/legal-pages/routes.ts';
import type { contactDetailsRoutes } from '../../../server/features/contact/routes.ts';
import { api } from './request.ts';
import type { Answer } from './route-types.ts';

export type LegalPage = Answer<typeof legalPagesRoutes, '/', '$get'>['pages'][number];
export type LegalPageSlug = LegalPage['slug'];
export type LegalPageSaved = Answer<typeof legalPagesRoutes, '/:slug{privacy|terms|imprint}', '$put'>;
export type ContactDetails = Answer<typeof contactDetailsRoutes, '/', '$get'>['details'];
export type ContactDetailsSaved = Answer<typeof contactDetailsRoutes, '/', '$put'>;

export async function fetchLegalPage(slug: LegalPageSlug): Promise<LegalPage | undefined> {
  const answer = await api.get<{ pages: LegalPage[] }>('/api/legal-pages', { loading: false });
  return answer.pages.find((page) => page.slug === slug);
}

export const saveLegalPage = (slug: LegalPageSlug, page: { title: string; body: string }) => api.put<LegalPageSaved>(`/api/legal-pages/${slug}`, page);

export const fetchContactDetails = async () => (await api.get<{ details: ContactDetails }>('/api/contact/details', { loading: false })).details;
export const saveContactDetails = (details: { address: string; email: string; phone: string }) => api.put<ContactDetailsSaved>('/api/contact/details', details);
