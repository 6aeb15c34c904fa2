// The mailings on /admin change by themselves (the worker sends within about 5 s, then retries): one
// polled store shared by every component that shows them, so the mailings list and the Send Mailing
// dialog make one request between them, not two. The publish status has its site-wide store in
// stores/publish-status.ts.
import { createPolledStore } from '../../stores/polled-store.ts';
import { listMailings, type MailingSummary } from '../../lib/api/admin.ts';

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
