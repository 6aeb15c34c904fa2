// The two things on /admin that change by themselves: the site's publish status (a build runs for a few
// seconds after every content change) and the mailings (the worker sends within about 5 s, then retries).
// Each is one polled store shared by every component that shows it, so the publish panel and the sitemap
// generator, or the mailings list and the Send Mailing dialog, make one request between them, not two.
import { fetchPublishStatus, publishSettled, type PublishStatus } from '../../lib/api/publish.ts';
import { listMailings, type MailingSummary } from '../../lib/api/admin.ts';
import { createPolledStore } from './polled-store.ts';

export const publishStore = createPolledStore<PublishStatus>({
  load: fetchPublishStatus,
  busy: (status) => !publishSettled(status),
  busyMs: 1000,
  // Other admins and content edits start builds too; a slow poll keeps the panel roughly current.
  idleMs: 30_000,
});

export function mailingInProgress(mailing: MailingSummary): boolean {
  return mailing.counts.pending > 0;
}

export const mailingsStore = createPolledStore<MailingSummary[]>({
  load: async () => (await listMailings()).mailings,
  busy: (mailings) => mailings.some(mailingInProgress),
  // The worker runs every 5 s; reading twice as often shows each step without flooding the server.
  busyMs: 2500,
  idleMs: null,
});
