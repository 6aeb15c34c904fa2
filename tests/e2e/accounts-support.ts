// Helpers for the accounts browser tests: unique addresses, the outbox of the product under test
// (playwright.config.ts sets E2E_DATA_DIR), an API registration for tests whose subject is not
// registering itself, and a verified, signed-in user for every test that needs one.
import path from 'node:path';
import { expect, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { encodeBotToken, fetchBotChallenge, solveFetchedChallenge } from '../helpers/botcheck.ts';
import { linksIn, readOutbox, type ParsedMail } from '../helpers/mail.ts';

/** Long, and in no common-password list. */
export const PASSWORD = 'plum-tractor-49-lantern';
export const NEW_PASSWORD = 'quartz-heron-83-meadow';

export function uniqueEmail(label: string): string {
  return `e2e-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

function outboxDir(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run through playwright.config.ts');
  return path.join(dataDir, 'outbox');
}

/** Every mail to `address` in the outbox so far, oldest first. */
export function mailsTo(address: string): ParsedMail[] {
  return readOutbox(outboxDir()).filter((mail) => mail.to.toLowerCase().includes(address.toLowerCase()));
}

/** Waits for the newest mail to `address` whose text has a link containing `linkPart`; returns that link. */
export async function waitForMailLink(address: string, linkPart: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        found = mailsTo(address)
          .flatMap((mail) => linksIn(mail.text))
          .filter((link) => link.includes(linkPart))
          .at(-1);
        return found;
      },
      { message: `a mail to ${address} with a ${linkPart} link`, timeout: 15_000 },
    )
    .toBeTruthy();
  return found as string;
}

/** A site-relative path for a link from a mail (the mail names SITE_URL, which is the server under test). */
export function pathOf(link: string): string {
  const url = new URL(link);
  return url.pathname + url.search;
}

export async function xsrfHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  await request.get('/sanctum/csrf-cookie');
  const xsrf = (await request.storageState()).cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
  return { 'X-XSRF-TOKEN': decodeURIComponent(xsrf), 'X-Requested-With': 'XMLHttpRequest' };
}

/** Logs a browser context in through the API, as the login modal would; its pages share the cookies. */
export async function logInThroughApi(request: APIRequestContext, email: string, password: string): Promise<void> {
  const challenge = await fetchBotChallenge({
    request: async (url) => {
      const answer = await request.get(url);
      return new Response(await answer.text(), { status: answer.status() });
    },
  });
  const g_token = encodeBotToken(challenge, await solveFetchedChallenge(challenge));
  const headers = await xsrfHeaders(request);
  const response = await request.post('/api/auth/login', { data: { email, password, remember_me: false, g_token }, headers });
  expect(response.status(), await response.text()).toBe(200);
}

/** Registers through the real API (bot check solved in-process), as the registration modal would. */
export async function registerAccount(request: APIRequestContext, account: { name: string; email: string; password: string }): Promise<void> {
  const headers = await xsrfHeaders(request);
  const challenge = await fetchBotChallenge({
    request: async (url) => {
      const answer = await request.get(url);
      return new Response(await answer.text(), { status: answer.status() });
    },
  });
  const g_token = encodeBotToken(challenge, await solveFetchedChallenge(challenge));
  const response = await request.post('/api/auth/create', { data: { ...account, password_confirmation: account.password, g_token }, headers });
  expect(response.status(), await response.text()).toBe(201);
}

/**
 * A user who registered and followed the verification link, signed in in their own context of `width` px.
 * The context may use the clipboard, as the dashboard's copy buttons do (the tests read back what they copied).
 */
export async function verifiedUser(browser: Browser, account: { name: string; email: string }, width = 1280): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
  await registerAccount(context.request, { ...account, password: PASSWORD });
  const page = await context.newPage();
  await page.goto(pathOf(await waitForMailLink(account.email, '/api/auth/email/verify/')));
  await expect(page.getByText('Your email has been verified.')).toBeVisible();
  await logInThroughApi(context.request, account.email, PASSWORD);
  return { context, page };
}
