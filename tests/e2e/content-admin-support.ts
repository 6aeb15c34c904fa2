// Helpers for the content admin browser tests: logging a browser context in through the API (the subject
// of these tests is the overlay, not the login form), a verified reader made through the admin API, a small
// real PNG, and waiting for the overlay's publish status or for the next build through the API.
import sharp from 'sharp';
import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { solveBotChallenge } from '../helpers/botcheck.ts';
import { registerAccount } from './accounts-support.ts';

/** The headers the browser client sends; the XSRF cookie is read again each time because login rotates it. */
export async function clientHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const xsrf = (await request.storageState()).cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
  return { 'X-XSRF-TOKEN': decodeURIComponent(xsrf), 'X-Requested-With': 'XMLHttpRequest' };
}

/**
 * Logs a browser context in with a real bot-check token. The context's request shares its cookies, so
 * pages opened afterwards are signed in (session cookie and the signed_in hint).
 */
export async function logInContext(context: BrowserContext, account: { email: string; password: string }): Promise<Record<string, string>> {
  const request = context.request;
  await request.get('/sanctum/csrf-cookie');
  const g_token = await solveBotChallenge({ request: async (path) => new Response(await (await request.get(path)).text()) });
  const response = await request.post('/api/auth/login', { data: { ...account, remember_me: false, g_token }, headers: await clientHeaders(request) });
  expect(response.status(), await response.text()).toBe(200);
  return clientHeaders(request);
}

/** Registers a reader and verifies the address through the admin's user edit (docs/admin-api.md). */
export async function createVerifiedReader(
  readerContext: BrowserContext,
  adminRequest: APIRequestContext,
  account: { name: string; email: string; password: string },
): Promise<void> {
  await registerAccount(readerContext.request, account);
  await logInContext(readerContext, account);
  const me = (await (await readerContext.request.get('/api/user', { headers: await clientHeaders(readerContext.request) })).json()) as { user: { id: number } };
  const update = await adminRequest.put(`/api/user/update/${me.user.id}`, { data: { email_verified_at: true }, headers: await clientHeaders(adminRequest) });
  expect(update.status(), await update.text()).toBe(200);
}

/** A small but real PNG (the server sniffs and re-encodes uploads, so it must decode). */
export function makePng(color: string): Promise<Buffer> {
  return sharp({ create: { width: 96, height: 64, channels: 3, background: color } })
    .png()
    .toBuffer();
}

/**
 * Waits until the overlay's publish status says 'Live' after a write. Call it once the write's success
 * notice shows: the overlay switches to 'Publishing…' as the write answers, before that notice, so 'Live'
 * from here on is the outcome of the build that holds the change.
 */
export async function waitForLive(page: Page): Promise<void> {
  const status = page.locator('[data-publish-state]');
  await expect(status).toHaveAttribute('data-publish-state', /publishing|live/);
  await expect(status).toHaveAttribute('data-publish-state', 'live', { timeout: 120_000 });
  await expect(status).toContainText('Live');
}

/** What GET /api/admin/publish answers, the parts the browser tests wait on. */
export interface PublishStatusAnswer {
  state: string;
  search?: string;
  last_success: { build_id: string; duration_ms: number } | null;
}

export async function publishStatus(request: APIRequestContext, headers: Record<string, string>): Promise<PublishStatusAnswer> {
  return (await (await request.get('/api/admin/publish', { headers })).json()) as PublishStatusAnswer;
}

/**
 * Waits until a build other than `before` (a build id, or none) is live and nothing more is queued; with
 * `search`, until that build's search index is updated as well.
 */
export async function waitForBuildAfter(
  request: APIRequestContext,
  headers: Record<string, string>,
  before: string | undefined,
  { search = false, timeout = 120_000 }: { search?: boolean; timeout?: number } = {},
): Promise<void> {
  await expect
    .poll(
      async () => {
        const now = await publishStatus(request, headers);
        return now.state === 'idle' && (!search || now.search === 'updated') && now.last_success !== null && now.last_success.build_id !== before;
      },
      { timeout, intervals: [500] },
    )
    .toBe(true);
}
