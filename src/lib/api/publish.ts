// Following a publish of the static site (docs/content-api.md, 'Publishing'). Polls pass loading: false:
// the full-screen loading modal is for what the admin just asked for, not for background refreshes.
import type { publishRoutes } from '../../../server/features/publish/routes.ts';
import { api } from './request.ts';
import type { Answer } from './route-types.ts';

export type PublishStatus = Answer<typeof publishRoutes, '/', '$get'>;

export const fetchPublishStatus = () => api.get<PublishStatus>('/api/admin/publish', { loading: false });
export const publishNow = () => api.post<Answer<typeof publishRoutes, '/', '$post'>>('/api/admin/publish', undefined, { loading: false });

/** Done means nothing is building and nothing is queued: the live site is the newest it will be. */
export function publishSettled(status: PublishStatus): boolean {
  return status.state !== 'building' && !status.pending;
}
