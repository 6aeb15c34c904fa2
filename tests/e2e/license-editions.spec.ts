// Editions in the browser (issue 24, "Tests"): an admin creates a "Pro" license type with its entitlements in
// License Types, grants it on the admin screen, and the owner's dashboard card shows the edition, its
// features, its updates and its history in words, at 1280 and 390 px; the software sees the same
// entitlements through the API.
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { logInThroughApi, verifiedUser } from './accounts-support.ts';
import { E2E_ADMIN, E2E_PORT } from './env.ts';

const BASE_URL = `http://localhost:${E2E_PORT}`;

test('an admin creates a Pro type, grants it, and the owner’s card shows what it gives', async ({ browser }) => {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const typeName = `Pro ${tag}`;
  const account = { name: `Pat Pro ${tag}`, email: `pro-${tag}@example.com` };
  const user = await verifiedUser(browser, account);

  const admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await logInThroughApi(admin.request, E2E_ADMIN.email, E2E_ADMIN.password);
  const page = await admin.newPage();
  await page.goto('/admin');
  await expect(page.getByText(/^Showing 1–/)).toBeVisible();

  // License Types: a new edition, with a bad code refused first (focus on the field, nothing stored).
  await page.getByRole('button', { name: 'License Types' }).click();
  const types = page.getByRole('dialog', { name: 'License Types' });
  await expect(types.getByRole('list', { name: 'License types' }).getByText('trial', { exact: true })).toBeVisible();
  await types.getByRole('button', { name: 'New Type' }).click();
  const form = types.getByRole('form', { name: 'New license type' });
  await form.getByLabel('Name').fill(typeName);
  await form.getByLabel('Entitlements').fill('PRO_EXPORT, pro');
  await form.getByLabel('Max machines').fill('2');
  await form.getByLabel('Expires after (days)').fill('365');
  await form.getByLabel('Updates included (days)').fill('180');
  await form.getByRole('button', { name: 'Add Type' }).click();
  await expect(form.getByText(/capital letter followed by/).first()).toBeVisible();
  await expect(form.getByLabel('Entitlements')).toBeFocused();
  await form.getByLabel('Entitlements').fill('PRO_EXPORT, CAD_IMPORT');
  await form.getByRole('button', { name: 'Add Type' }).click();
  await expect(types.getByText('License type created.')).toBeVisible();
  await expect(types.getByRole('listitem').filter({ hasText: typeName })).toContainText('CAD_IMPORT, PRO_EXPORT');
  await page.screenshot({ path: test.info().outputPath('license-types-1280.png'), fullPage: true });
  await page.keyboard.press('Escape');

  // The license form offers the new type, with its days.
  await page.getByLabel('Filter users').fill(account.email);
  const row = page
    .getByRole('table', { name: /^Users table/ })
    .locator('tbody tr.admin-users__row')
    .filter({ hasText: account.email });
  await row.getByRole('button', { name: /^Details/ }).click();
  const licenses = page.getByRole('region', { name: `Licenses of ${account.name}` });
  await licenses.getByRole('button', { name: 'Add License' }).click();
  const add = page.getByRole('dialog', { name: 'Add License' });
  await add.getByLabel('License type').selectOption({ label: typeName });
  await expect(add.getByLabel('Expires after (days)')).toHaveValue('365');
  await expect(add.getByText('The type gives CAD_IMPORT, PRO_EXPORT.', { exact: false })).toBeVisible();
  await add.getByLabel('Active').check();
  await add.getByLabel('Extra entitlements').fill('LAB_SEATS');
  await add.getByRole('button', { name: 'Add License' }).click();
  await expect(add).toBeHidden();
  await expect(licenses.getByText(/^License granted/)).toBeVisible();
  const details = licenses.getByRole('region', { name: /^License #\d+ details$/ });
  await expect(details).toContainText('CAD_IMPORT, LAB_SEATS, PRO_EXPORT');
  await admin.close();

  // The owner's card at 1280 px.
  const { page: dashboard } = user;
  await dashboard.goto('/dashboard');
  const card = dashboard.getByRole('article', { name: `License: ${typeName}` });
  await expect(card.getByText('CAD_IMPORT, LAB_SEATS, PRO_EXPORT')).toBeVisible();
  await expect(card.getByText(/^\d{4}-\d{2}-\d{2}$/)).toBeVisible();
  await expect(card.getByText('0 of 2 machines activated')).toBeVisible();
  await card.getByText('History').click();
  await expect(card.getByRole('listitem').filter({ hasText: `Granted: ${typeName}, 2 machines, expires` })).toContainText('by an administrator');
  await dashboard.screenshot({ path: test.info().outputPath('license-card-1280.png'), fullPage: true });

  // The software sees the same through the API; asking for what it lacks answers ENTITLEMENTS_MISSING.
  const key = (await card.locator('code').textContent()) ?? '';
  const software = await playwrightRequest.newContext({ baseURL: BASE_URL });
  const validated = await (await software.post('/api/licensing/v1/validate', { data: { key, entitlements: ['PRO_EXPORT', 'SITE_SERVER'] } })).json();
  expect(validated).toMatchObject({ valid: false, code: 'ENTITLEMENTS_MISSING', missing: ['SITE_SERVER'], license: { type: typeName } });
  await software.dispose();

  // At 390 px: nothing cut off, the history reachable by keyboard.
  await dashboard.setViewportSize({ width: 390, height: 844 });
  await expect(card.getByText('CAD_IMPORT, LAB_SEATS, PRO_EXPORT')).toBeVisible();
  const overflow = await dashboard.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await card.locator('summary', { hasText: 'History' }).focus();
  await expect(card.locator('summary', { hasText: 'History' })).toBeFocused();
  await dashboard.screenshot({ path: test.info().outputPath('license-card-390.png'), fullPage: true });
  await user.context.close();
});
