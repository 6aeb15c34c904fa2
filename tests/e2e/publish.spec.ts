// The publish pipeline as an admin sees it: change a home section through the API, the site rebuilds,
// and readers get the new title on `/` (issue 2 "Done when").
import { expect, test, type APIRequestContext } from '@playwright/test';
import { E2E_ADMIN } from './env.ts';
import { solveBotChallenge } from '../helpers/botcheck.ts';
import { clientHeaders as contextHeaders, logInContext, publishStatus, waitForBuildAfter } from './content-admin-support.ts';

/** The headers the browser client sends; the XSRF cookie is re-read because login rotates it. */
async function clientHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const xsrf = (await request.storageState()).cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
  return { 'X-XSRF-TOKEN': decodeURIComponent(xsrf), 'X-Requested-With': 'XMLHttpRequest' };
}

async function apiLogin(request: APIRequestContext): Promise<Record<string, string>> {
  await request.get('/sanctum/csrf-cookie');
  // Solve a real challenge from the running server, as the browser's invisible bot check does.
  const g_token = await solveBotChallenge({ request: async (path) => new Response(await (await request.get(path)).text()) });
  const response = await request.post('/api/auth/login', {
    data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password, remember_me: false, g_token },
    headers: await clientHeaders(request),
  });
  expect(response.status(), await response.text()).toBe(200);
  return clientHeaders(request);
}

test('an admin edit through the API is live on the static home page after the publish', async ({ page, request }) => {
  const headers = await apiLogin(request);
  const sections = (await (await request.get('/api/home/getSections')).json()) as { sections: { id: number; body: string; order: number }[] };
  const first = sections.sections[0];
  expect(first).toBeDefined();
  const before = await publishStatus(request, headers);

  const newTitle = `Measured twice, published once ${Date.now()}`;
  const update = await request.put('/api/home/update', { data: { id: first!.id, title: newTitle, body: first!.body, order: first!.order }, headers });
  expect(update.status(), await update.text()).toBe(200);

  await waitForBuildAfter(request, headers, before.last_success?.build_id, { timeout: 60_000 });
  const status = await publishStatus(request, headers);
  expect(status.last_success?.duration_ms).toBeGreaterThan(0);

  await page.goto('/');
  await expect(page.getByRole('heading', { name: newTitle })).toBeVisible();
});

test('the publish state says Live when readers get the change, then Search updated once the index has it', async ({ browser }) => {
  const context = await browser.newContext();
  await logInContext(context, E2E_ADMIN);
  const page = await context.newPage();
  const title = `Calibration days ${Date.now()}`;
  await page.goto('/');
  const tools = page.getByRole('region', { name: 'Manage the home page' });
  const form = tools.getByRole('region', { name: 'New home section' });
  await form.getByLabel('Title', { exact: true }).fill(title);
  await form.getByRole('textbox', { name: 'Body' }).fill('Bring your gauges.');
  await form.getByLabel('Order', { exact: true }).fill('1001');
  await form.getByRole('button', { name: 'Add section' }).click();
  await expect(tools.getByText('Section created.')).toBeVisible();

  // One live region, announced politely: first the pages ("Live"), then the search index.
  const state = page.getByRole('status').and(page.locator('[data-publish-state]'));
  await expect(state).toHaveAttribute('data-publish-state', 'live', { timeout: 120_000 });
  await expect(state).toContainText('Live');
  await expect(state).toContainText('Search updated.', { timeout: 120_000 });
  await expect(state).not.toContainText('Updating search');

  // Readers get the page, and the search index the server made knows the new section's words.
  const reader = await browser.newPage();
  await reader.goto('/');
  await expect(reader.getByRole('heading', { name: title })).toBeVisible();
  const publish = (await (await context.request.get('/api/admin/publish', { headers: await contextHeaders(context.request) })).json()) as { search: string };
  expect(publish.search).toBe('updated');

  // The admin console's publish panel says the same; its "Publish now" builds every page (a full build).
  await page.goto('/admin');
  const panel = page.getByRole('region', { name: 'Site publishing' });
  await expect(panel.getByText('Search updated: it finds the live pages')).toBeVisible();
  await panel.getByRole('button', { name: 'Publish now' }).click();
  await expect(panel.getByText('Idle: the live site is up to date')).toBeVisible({ timeout: 120_000 });
  await expect(panel.getByText('Search updated: it finds the live pages')).toBeVisible({ timeout: 120_000 });

  // Clean up (later spec files count the demo's home sections), and wait until readers no longer get it.
  const headers = await contextHeaders(context.request);
  const sections = (await (await context.request.get('/api/home/getSections', { headers })).json()) as { sections: { id: number; title: string }[] };
  const added = sections.sections.find((section) => section.title === title);
  expect(added).toBeDefined();
  expect((await context.request.delete('/api/home/delete', { data: { id: added!.id }, headers })).status()).toBe(200);
  await expect(async () => {
    await reader.goto('/');
    await expect(reader.getByRole('heading', { name: title })).toHaveCount(0);
  }).toPass({ timeout: 120_000 });
  await context.close();
  await reader.close();
});
