// The publish status (`GET /api/admin/publish`, docs/admin-api.md): the one definition every island reads
// it through. Its type comes from the server's presenter (types only, so nothing of the server reaches a
// browser bundle). Polls pass loading: false: the loading modal is for what the admin just asked for.
import type { presentPublishStatus } from '../../server/routes/publish.ts';
import { api } from './api-client.ts';

export type PublishStatus = ReturnType<typeof presentPublishStatus>;

export function fetchPublishStatus(): Promise<PublishStatus> {
  return api.get<PublishStatus>('/api/admin/publish', { loading: false });
}

/** Done means nothing is building and nothing is queued: the live site is the newest it will be. */
export function publishSettled(status: PublishStatus): boolean {
  return status.state !== 'building' && !status.pending;
}
