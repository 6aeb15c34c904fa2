// Helpers for the accounts API tests: register through the real route (XSRF cookie, bot token), wait for
// a mail that is sent after the answer (password reset mails go out in the background), and follow links.
import { vi } from 'vitest';
import type { App } from '../../server/app.ts';
import { createClient, type RequestOptions, type TestClient } from './auth.ts';
import { solveBotChallenge } from './botcheck.ts';
import { latestMailTo, linksIn, type ParsedMail } from './mail.ts';

/** Long, and in no common-password list. */
export const STRONG_PASSWORD = 'plum-tractor-49-lantern';

export interface RegistrationInput {
  name?: unknown;
  email?: unknown;
  password?: unknown;
  password_confirmation?: unknown;
  g_token?: unknown;
}

/** A fresh anonymous client with its XSRF cookie, as the browser has before submitting a form. */
export async function anonymousClient(app: App): Promise<TestClient> {
  const client = createClient(app);
  await client.fetchCsrfCookie();
  return client;
}

/** POST /api/auth/create with valid defaults (and a fresh bot token) overridden by `input`. */
export async function register(app: App, input: RegistrationInput = {}, options: RequestOptions = {}): Promise<Response> {
  const client = await anonymousClient(app);
  const body = {
    name: 'Ann',
    email: 'ann@example.test',
    password: STRONG_PASSWORD,
    password_confirmation: input.password ?? STRONG_PASSWORD,
    g_token: await solveBotChallenge(app),
    ...input,
  };
  return client.request('POST', '/api/auth/create', body, options);
}

/** The newest outbox mail to `address` that satisfies `accept`, waiting for it to be written. */
export async function waitForMailTo(outboxDir: string, address: string, accept: (mail: ParsedMail) => boolean = () => true): Promise<ParsedMail> {
  return vi.waitFor(
    () => {
      const mail = latestMailTo(outboxDir, address);
      if (!mail || !accept(mail)) throw new Error(`no matching mail to ${address} yet`);
      return mail;
    },
    { timeout: 5_000, interval: 20 },
  );
}

/** The first link of a mail's text part that contains `fragment`. */
export function linkIn(mail: ParsedMail, fragment: string): string {
  const link = linksIn(mail.text).find((candidate) => candidate.includes(fragment));
  if (!link) throw new Error(`no link containing ${fragment} in mail "${mail.subject}":\n${mail.text}`);
  return link;
}

/** Where a redirect answer sends the browser, parsed (relative locations resolved against the site). */
export function redirectTarget(response: Response): URL {
  const location = response.headers.get('Location');
  if (!location) throw new Error(`answer ${response.status} has no Location header`);
  return new URL(location, 'http://localhost:4321');
}
