// Licensing as a user, an admin and the company's software meet it (issue 12, "Done when", browser part):
// a verified user requests a trial, the admin grants it, the user copies the key from the dashboard, a
// script acting as the software activates a machine through the API (no cookies), the dashboard shows
// the machine, the user deactivates it, then downloads a machine-bound license file that
// `npm run license-verify` accepts (and refuses for another machine).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, request as playwrightRequest, test, type Browser, type BrowserContext } from '@playwright/test';
import { logInThroughApi, verifiedUser } from './accounts-support.ts';
import { E2E_ADMIN, E2E_PORT } from './env.ts';

const BASE_URL = `http://localhost:${E2E_PORT}`;

function runTag(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** The admin grants a 14-day trial on the admin screen. */
async function grantTrial(browser: Browser, account: { name: string; email: string }): Promise<void> {
  const context = await browser.newContext();
  await logInThroughApi(context.request, E2E_ADMIN.email, E2E_ADMIN.password);
  const page = await context.newPage();
  await page.goto('/admin');
  await expect(page.getByText(/^Showing 1–/)).toBeVisible();
  await page.getByLabel('Filter users').fill(account.email);
  const row = page
    .getByRole('table', { name: /^Users table/ })
    .locator('tbody tr.admin-users__row')
    .filter({ hasText: account.email });
  await row.getByRole('button', { name: /^Details/ }).click();
  const licenses = page.getByRole('region', { name: `Licenses of ${account.name}` });
  await licenses.getByRole('button', { name: 'Add License' }).click();
  const form = page.getByRole('dialog', { name: 'Add License' });
  await form.getByLabel('License type').selectOption({ label: 'trial' });
  await form.getByLabel('Expires after (days)').fill('14');
  await form.getByRole('button', { name: 'Add License' }).click();
  await expect(form).toBeHidden();
  await expect(licenses.getByText(/^License granted/)).toBeVisible();
  await context.close();
}

/** `npm run license-verify -- <file> --fingerprint <fp>` against the keys the server under test publishes. */
function licenseVerify(file: string, fingerprint: string): { status: number | null; output: string } {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run through playwright.config.ts');
  const run = spawnSync(process.execPath, ['scripts/license-verify.ts', file, '--fingerprint', fingerprint], {
    env: { ...process.env, DATA_DIR: dataDir, CONTENT_DIR: path.join(dataDir, 'content'), SITE_URL: BASE_URL },
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

test('a trial from request to a verified machine-bound license file', async ({ browser }) => {
  const tag = runTag();
  const account = { name: `Licensed Lena ${tag}`, email: `licensing-${tag}@example.com` };
  const user = await verifiedUser(browser, account);
  const { page } = user;

  // The request waits for the admin (automatic trials are off by default).
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Request License' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Request Sent' })).toBeVisible();
  await expect(page.getByText('License requested – awaiting approval')).toBeVisible();

  await grantTrial(browser, account);

  // The card: status in words, the key, no machine yet. Copy puts the key on the clipboard.
  await page.reload();
  const card = page.getByRole('article', { name: 'License: trial' });
  await expect(card.getByText('Trial – expires in 14 days')).toBeVisible();
  await expect(page.getByText('License requested – awaiting approval')).toHaveCount(0);
  await expect(card.getByText('0 of 1 machine activated')).toBeVisible();
  await card.getByRole('button', { name: 'Copy the license key' }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
  const key = await page.evaluate(() => navigator.clipboard.readText());
  expect(key).toMatch(/^DCTL(-[0-9A-Z]{5}){5,}$/);
  await expect(card.locator('code', { hasText: key })).toBeVisible();

  // The software: no cookies, only the key.
  const software = await playwrightRequest.newContext({ baseURL: BASE_URL });
  const fingerprint = `fp-online-${tag}`;
  const activated = await software.post('/api/licensing/v1/activate', { data: { key, fingerprint, name: `Build Box ${tag}`, platform: 'linux-x64' } });
  expect(activated.status(), await activated.text()).toBe(201);
  expect(await activated.json()).toMatchObject({ code: 'ACTIVATED' });

  await page.reload();
  const machines = card.getByRole('region', { name: `Machines of license ${key}` });
  const buildBox = machines.getByRole('listitem').filter({ hasText: `Build Box ${tag}` });
  await expect(buildBox).toBeVisible();
  await expect(buildBox).toContainText(/linux-x64 · last check-in (now|\d+ seconds? ago)/);
  await expect(card.getByText('1 of 1 machine activated')).toBeVisible();

  // Deactivate asks first; the seat is then free, and the software hears of it.
  await machines.getByRole('button', { name: `Deactivate Build Box ${tag}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Deactivate Machine' });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Deactivate', exact: true }).click();
  await expect(machines.getByRole('status').filter({ hasText: `Build Box ${tag} deactivated.` })).toBeVisible();
  await expect(buildBox).toHaveCount(0);
  // The pressed button left with its machine: focus is on the list's heading, not lost to the page.
  await expect(machines.getByRole('heading', { name: 'Machines' })).toBeFocused();
  await expect(card.getByText('0 of 1 machine activated')).toBeVisible();
  const validated = await software.post('/api/licensing/v1/validate', { data: { key, fingerprint } });
  expect(await validated.json()).toMatchObject({ valid: false, code: 'NO_MACHINE' });
  await software.dispose();

  // An offline machine: its fingerprint pasted, a machine-bound file downloaded.
  const offline = `fp-offline-${tag}`;
  await card.getByText('Download license file').click();
  await card.getByLabel('Machine fingerprint').fill(offline);
  await card.getByLabel('Machine name (optional)').fill(`Air-gapped ${tag}`);
  const downloading = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Download file' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${key}.lic`);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lic-e2e-')), download.suggestedFilename());
  await download.saveAs(file);
  await expect(card.getByText(`${key}.lic downloaded.`)).toBeVisible();
  await expect(machines.getByRole('listitem').filter({ hasText: `Air-gapped ${tag}` })).toBeVisible();

  // On a phone the card (key, machines, the form) fits without sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(card.getByRole('button', { name: 'Copy the license key' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  const accepted = licenseVerify(file, offline);
  expect(accepted.status, accepted.output).toBe(0);
  expect(accepted.output).toContain(key);
  const otherMachine = licenseVerify(file, `${offline}-other`);
  expect(otherMachine.status, otherMachine.output).toBe(1);
  await user.context.close();
});

/** Automatic trials off again through the API, whatever happened: the other browser tests expect the default. */
async function resetLicensingSettings(context: BrowserContext): Promise<void> {
  await context.request.get('/sanctum/csrf-cookie');
  const xsrf = (await context.request.storageState()).cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
  const headers = { 'X-XSRF-TOKEN': decodeURIComponent(xsrf), 'X-Requested-With': 'XMLHttpRequest' };
  const response = await context.request.put('/api/admin/licensing-settings', { data: { auto_grant_trials: 0 }, headers });
  expect(response.status(), await response.text()).toBe(200);
  // The trial type's limit back to 1 (issue 24: it lives in the type).
  const types = (await (await context.request.get('/api/license/types', { headers })).json()) as { license_types: Array<{ id: number; name: string }> };
  const trial = types.license_types.find((type) => type.name === 'trial');
  const reset = await context.request.put(`/api/license/types/${trial?.id}`, { data: { max_machines: 1 }, headers });
  expect(reset.status(), await reset.text()).toBe(200);
}

test('an admin turns on automatic trials, then sees the key, machines and history, deactivates a machine, suspends and extends', async ({ browser }) => {
  const tag = runTag();
  const account = { name: `Auto Arne ${tag}`, email: `auto-trial-${tag}@example.com` };
  const admin = await browser.newContext();
  await logInThroughApi(admin.request, E2E_ADMIN.email, E2E_ADMIN.password);
  const page = await admin.newPage();
  try {
    await page.goto('/admin');
    await expect(page.getByText(/^Showing 1–/)).toBeVisible();
    // The trial's machine limit lives in its type since issue 24 (License Types).
    await page.getByRole('button', { name: 'License Types' }).click();
    const types = page.getByRole('dialog', { name: 'License Types' });
    await types.getByRole('button', { name: 'Edit trial' }).click();
    const trialForm = types.getByRole('form', { name: 'Edit trial' });
    await trialForm.getByLabel('Max machines').fill('0');
    await trialForm.getByRole('button', { name: 'Save Type' }).click();
    await expect(trialForm.getByText('The max machines field must be at least 1.')).toBeVisible();
    await expect(trialForm.getByLabel('Max machines')).toBeFocused();
    await trialForm.getByLabel('Max machines').fill('2');
    await trialForm.getByRole('button', { name: 'Save Type' }).click();
    await expect(types.getByText('License type saved.')).toBeVisible();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Licensing Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Licensing Settings' });
    await expect(settings.getByLabel('Grant trials automatically to verified users')).not.toBeChecked();
    await settings.getByLabel('Grant trials automatically to verified users').check();
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect(settings.getByText('Licensing settings saved.')).toBeVisible();
    await page.keyboard.press('Escape');

    // Request License now grants the verified user a trial at once, with the new limit.
    const user = await verifiedUser(browser, account);
    await user.page.goto('/dashboard');
    await user.page.getByRole('button', { name: 'Request License' }).click();
    await expect(user.page.getByRole('status').filter({ hasText: 'Trial License Granted' })).toBeVisible();
    const card = user.page.getByRole('article', { name: 'License: trial' });
    await expect(card.getByText('0 of 2 machines activated')).toBeVisible();
    const key = (await card.locator('code').textContent()) ?? '';
    expect(key).toMatch(/^DCTL-/);
    await user.context.close();

    const software = await playwrightRequest.newContext({ baseURL: BASE_URL });
    const fingerprint = `fp-admin-${tag}`;
    expect((await software.post('/api/licensing/v1/activate', { data: { key, fingerprint, platform: 'win-x64' } })).status()).toBe(201);

    await page.reload();
    await page.getByLabel('Filter users').fill(account.email);
    const row = page
      .getByRole('table', { name: /^Users table/ })
      .locator('tbody tr.admin-users__row')
      .filter({ hasText: account.email });
    await row.getByRole('button', { name: /^Details/ }).click();
    const panel = page.getByRole('region', { name: `Licenses of ${account.name}` });
    const details = panel.getByRole('region', { name: /^License #\d+ details$/ });
    await expect(details.locator('code', { hasText: key })).toBeVisible();
    await expect(details.getByText(fingerprint)).toBeVisible();
    await expect(panel.getByRole('row').filter({ hasText: 'trial' })).toContainText('1 / 2');

    await details.getByRole('button', { name: /^Deactivate Machine fp-admin/ }).click();
    await page.getByRole('dialog', { name: 'Deactivate Machine' }).getByRole('button', { name: 'Deactivate', exact: true }).click();
    await expect(panel.getByText(/deactivated \(license #\d+\)\.$/)).toBeVisible();
    await expect(details.getByText(fingerprint)).toHaveCount(0);

    await panel.getByRole('button', { name: /^Suspend license/ }).click();
    await page.getByRole('dialog', { name: 'Suspend License' }).getByRole('button', { name: 'Suspend', exact: true }).click();
    await expect(panel.getByRole('row').filter({ hasText: 'trial' })).toContainText('Suspended');
    await expect(panel.getByRole('button', { name: /^Unsuspend license/ })).toBeVisible();
    const validated = await software.post('/api/licensing/v1/validate', { data: { key } });
    expect(await validated.json()).toMatchObject({ valid: false, code: 'SUSPENDED' });

    // Extend: the days of the active trial, whose new expiry the hint shows; unsuspend in the same form.
    await panel.getByRole('button', { name: /^Edit license/ }).click();
    const form = page.getByRole('dialog', { name: /^Update License #\d+/ });
    await expect(form.getByLabel('Max machines')).toHaveValue('2');
    await expect(form.getByLabel(/^Suspended/)).toBeChecked();
    await form.getByLabel('Expires after (days)').fill('60');
    await expect(form.getByText(/expires .*Raise the days to extend the license\./)).toBeVisible();
    await form.getByLabel(/^Suspended/).uncheck();
    await form.getByRole('button', { name: 'Update License' }).click();
    await expect(form).toBeHidden();
    await expect(panel.getByRole('row').filter({ hasText: 'trial' })).toContainText('Trial – expires in 60 days');
    expect(await (await software.post('/api/licensing/v1/validate', { data: { key } })).json()).toMatchObject({ valid: true, code: 'VALID' });
    await software.dispose();

    await details.getByText('History').click();
    const history = details.getByRole('listitem');
    await expect(details.getByRole('status').filter({ hasText: /events, newest first/ })).toBeVisible();
    // In words (issue 24, item 5), the same the owner's card shows.
    await expect(history.filter({ hasText: /Extended until \d{4}-\d{2}-\d{2} \(was \d{4}-\d{2}-\d{2}\) by .*\(admin\)/ })).toHaveCount(1);
    await expect(history.filter({ hasText: 'Suspension lifted by' })).toHaveCount(1);
    await expect(history.filter({ hasText: /Suspended: the software refuses it until it is lifted by/ })).toHaveCount(1);
    await expect(history.filter({ hasText: /fp-admin-\w+ deactivated by .*\(admin\)/ })).toHaveCount(1);
    await expect(history.filter({ hasText: /fp-admin-\w+ activated by the software/ })).toHaveCount(1);
    await expect(history.filter({ hasText: 'Trial granted on request: trial, 2 machines' })).toHaveCount(1);
    await expect(history.filter({ hasText: /: \w+ → / })).toHaveCount(0);
  } finally {
    await resetLicensingSettings(admin);
    await admin.close();
  }
});
