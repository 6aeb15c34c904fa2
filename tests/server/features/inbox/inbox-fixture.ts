// Shared steps of the inbox tests: a visitor's contact message and a user's license request through the real routes.
import type { App } from '../../../../server/app.ts';
import { anonymousClient } from '../../../helpers/accounts.ts';
import type { LoggedInClient } from '../../../helpers/auth.ts';
import { solveBotChallenge } from '../../../helpers/botcheck.ts';

export async function sendContactMessage(app: App, fields: { name: string; email: string; message: string }): Promise<void> {
  const client = await anonymousClient(app);
  const response = await client.request('POST', '/api/contact', { ...fields, g_token: await solveBotChallenge(app) });
  if (response.status !== 200) throw new Error(`POST /api/contact answered ${response.status}: ${await response.text()}`);
}

export async function requestLicense(user: LoggedInClient): Promise<void> {
  const response = await user.request('GET', `/api/user/request-license/${user.user.id}`);
  if (response.status !== 200) throw new Error(`request-license answered ${response.status}: ${await response.text()}`);
}

export interface InboxItemAnswer {
  kind: 'contact' | 'license-request';
  id: number;
  created_at: string;
  name: string;
  email: string;
  message: string | null;
  user_id: number | null;
  read_at: string | null;
  handled_at: string | null;
  handled_by: { id: number; name: string } | null;
  outcome: 'granted' | 'declined' | null;
  decline_reason: string | null;
  decided_at: string | null;
  decided_by: { id: number; name: string } | null;
  assigned_to: { id: number; name: string } | null;
  reply_subject: string;
  replies: Array<{
    id: number;
    subject: string;
    message: string;
    created_at: string;
    sent_by: { id: number; name: string } | null;
    author: 'admin' | 'user';
  }>;
}

export interface InboxListAnswer {
  items: InboxItemAnswer[];
  page: number;
  page_count: number;
  total: number;
  unread: number;
  matches_elsewhere: number;
}

export async function listInbox(admin: LoggedInClient, query = ''): Promise<InboxListAnswer> {
  const response = await admin.request('GET', `/api/admin/inbox${query}`);
  if (response.status !== 200) throw new Error(`GET /api/admin/inbox${query} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as InboxListAnswer;
}
