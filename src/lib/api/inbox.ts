// The admin inbox's calls (docs/admin-api.md#inbox): the list, the read/handled/reopen state, replies, and a license
// request's Grant trial and Decline. Every write answers the item as it is now and the new unread count.
import type { inboxRoutes } from '../../../server/features/inbox/routes.ts';
import type { licenseRequestRoutes } from '../../../server/features/inbox/routes.ts';
import { api } from './request.ts';
import type { Answer } from './route-types.ts';

export type InboxPage = Answer<typeof inboxRoutes, '/', '$get'>;
export type InboxItem = InboxPage['items'][number];
export type InboxKind = InboxItem['kind'];
export type InboxStatus = 'open' | 'handled' | 'all';
export type InboxItemAnswer = Answer<typeof inboxRoutes, '/:kind{contact|license-request}/:id/read', '$post'>;
export type InboxGrantAnswer = Answer<typeof licenseRequestRoutes, '/:id/grant', '$post'>;
export type InboxDeclineAnswer = Answer<typeof licenseRequestRoutes, '/:id/decline', '$post'>;

export function listInbox(query: { status: InboxStatus; q: string; page: number }, options: { loading?: boolean } = {}) {
  const params = new URLSearchParams({ status: query.status, page: String(query.page) });
  if (query.q.trim()) params.set('q', query.q.trim());
  return api.get<InboxPage>(`/api/admin/inbox?${params.toString()}`, { loading: options.loading ?? false });
}

const itemPath = (item: Pick<InboxItem, 'kind' | 'id'>) => `/api/admin/inbox/${item.kind}/${item.id}`;

/** Opening an item: marks it read (no loading modal: it happens as the admin opens it). */
export const markInboxRead = (item: Pick<InboxItem, 'kind' | 'id'>) => api.post<InboxItemAnswer>(`${itemPath(item)}/read`, undefined, { loading: false });
export const markInboxHandled = (item: Pick<InboxItem, 'kind' | 'id'>) => api.post<InboxItemAnswer>(`${itemPath(item)}/handled`);
export const reopenInboxItem = (item: Pick<InboxItem, 'kind' | 'id'>) => api.post<InboxItemAnswer>(`${itemPath(item)}/reopen`);
/** Assign to me, or to nobody (issue 28, item 23). */
export const assignInboxItem = (item: Pick<InboxItem, 'kind' | 'id'>, toMe: boolean) =>
  api.post<InboxItemAnswer>(`${itemPath(item)}/${toMe ? 'assign' : 'unassign'}`);
export const replyToInboxItem = (item: Pick<InboxItem, 'kind' | 'id'>, reply: { subject: string; message: string }) =>
  api.post<InboxItemAnswer>(`${itemPath(item)}/reply`, reply);
export const grantLicenseRequest = (id: number, days: string) => api.post<InboxGrantAnswer>(`/api/admin/inbox/license-request/${id}/grant`, { days });
export const declineLicenseRequest = (id: number, reason: string) => api.post<InboxDeclineAnswer>(`/api/admin/inbox/license-request/${id}/decline`, { reason });
