// The signed-in user's support history (issue 28, section 1; server/features/support): their own messages and license
// requests with the admins' replies, and their answer to one of them.
import type { supportRoutes } from '../../../server/features/support/routes.ts';
import { api } from './request.ts';
import type { Answer } from './route-types.ts';

export type SupportList = Answer<typeof supportRoutes, '/', '$get'>;
export type SupportItem = SupportList['items'][number];
export type SupportAnswer = Answer<typeof supportRoutes, '/:kind{contact|license-request}/:id/reply', '$post'>;

export const listSupport = () => api.get<SupportList>('/api/user/support', { loading: false });
export const answerSupportItem = (item: Pick<SupportItem, 'kind' | 'id'>, message: string) =>
  api.post<SupportAnswer>(`/api/user/support/${item.kind}/${item.id}/reply`, { message });
