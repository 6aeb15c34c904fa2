// Releases that know their customers, the browser side (issue 25, item 6 and "Tests"): "My software" on the
// dashboard and the admin's release form at 1280 and 390 px, the download statistics, and the previous
// releases' download links on the public page for whoever may download them. The data is made through the
// real API (tests/e2e/releases-support.ts): a "Pro" type with its own entitlement, a user holding it with
// maintenance until 12 March 2027, and releases before and after that date.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { verifiedUser, xsrfHeaders } from './accounts-support.ts';
import { E2E_S3_BUCKET, E2E_S3_PORT, E2E_STORAGE } from './env.ts';
import {
  adminContext,
  createLicenseType,
  createRelease,
  deleteRelease,
  expectNoSidewaysScroll,
  fileBytes,
  grantLicense,
  userIdOf,
  waitForPublish,
  type SeededRelease,
} from './releases-support.ts';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const ENTITLEMENT = `PRO_${tag.toUpperCase()}`;
const TYPE_NAME = `Pro ${tag}`;
const CUSTOMER = { name: `Cleo Customer ${tag}`, email: `cleo-${tag}@example.com` };
const title = (version: string) => `Gauge Pro ${tag} ${version}`;

let admin: BrowserContext;
let customer: { context: BrowserContext; page: Page };
const releases: Record<'old' | 'previous' | 'latest' | 'future', SeededRelease | undefined> = {
  old: undefined,
  previous: undefined,
  latest: undefined,
  future: undefined,
};
const release = (key: keyof typeof releases): SeededRelease => {
  const found = releases[key];
  if (!found) throw new Error(`release ${key} was not made`);
  return found;
};

test.beforeAll(async ({ browser }) => {
  admin = await adminContext(browser);
  const typeId = await createLicenseType(admin.request, TYPE_NAME, [ENTITLEMENT]);
  customer = await verifiedUser(browser, CUSTOMER);
  await grantLicense(admin.request, { userId: await userIdOf(admin.request, CUSTOMER.email), typeId, maintenanceUntil: '2027-03-12' });
  const common = { entitlement: ENTITLEMENT };
  // Not downloadable any more: a previous release, still given by the license.
  releases.old = await createRelease(admin.request, {
    ...common,
    title: title('2.0.0'),
    body: 'The **first** Pro line.',
    version: '2.0.0',
    // With a time of day: an edit that leaves the date alone must keep it (the form's date input holds days).
    released_at: '2026-01-15T10:30:00.000Z',
    downloadable: false,
    files: [{ platform: 'any', arch: 'universal', label: `old-${tag}` }],
  });
  releases.previous = await createRelease(admin.request, {
    ...common,
    title: title('3.0.0'),
    body: 'Adds reports.',
    version: '3.0.0',
    released_at: '2026-06-01',
    downloadable: true,
    files: [
      { platform: 'any', arch: 'universal', label: `prev-any-${tag}` },
      { platform: 'windows', arch: 'x64', label: `prev-win-${tag}` },
    ],
  });
  releases.latest = await createRelease(admin.request, {
    ...common,
    title: title('3.1.0'),
    body: 'Adds **probe calibration**.',
    version: '3.1.0',
    // Ahead of every release other tests make "now" (a license gives the ungated ones too), before the maintenance ends.
    released_at: '2027-01-15',
    downloadable: true,
    files: [
      { platform: 'any', arch: 'universal', label: `latest-any-${tag}` },
      { platform: 'windows', arch: 'x64', label: `latest-win-${tag}` },
      { platform: 'macos', arch: 'arm64', label: `latest-mac-${tag}` },
      { platform: 'linux', arch: 'x64', label: `latest-linux-${tag}` },
    ],
  });
  // After the maintenance ends: the license may not have it.
  releases.future = await createRelease(admin.request, {
    ...common,
    title: title('4.0.0'),
    body: 'A new major version.',
    version: '4.0.0',
    released_at: '2027-06-01',
    downloadable: true,
    files: [{ platform: 'any', arch: 'universal', label: `future-${tag}` }],
  });
});

test.afterAll(async () => {
  for (const seeded of Object.values(releases)) if (seeded) await deleteRelease(admin.request, seeded.id);
  await customer?.context.close();
  await admin?.close();
});

async function sha256Of(download: { path: () => Promise<string | null> }): Promise<string> {
  const file = await download.path();
  return crypto
    .createHash('sha256')
    .update(fs.readFileSync(file ?? ''))
    .digest('hex');
}

for (const width of [1280, 390]) {
  test(`My software shows the license, its releases per platform and the renewal note at ${width} px`, async () => {
    const { page } = customer;
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/dashboard');
    const software = page.getByRole('region', { name: 'My software' });
    const card = software.getByRole('article', { name: `${TYPE_NAME} license` });
    await expect(card).toBeVisible();
    await expect(card).toContainText(ENTITLEMENT);
    await expect(card.getByText('Maintenance until 12 March 2027')).toBeVisible();

    // The newest release the license gives: its notes, and one Download per platform.
    const latest = card.getByRole('article', { name: `Latest: ${title('3.1.0')}` });
    await expect(latest.locator('.prose strong')).toHaveText('probe calibration');
    await expect(latest).toContainText('Released 15 January 2027');
    for (const platform of ['All platforms', 'Windows x64', 'macOS ARM64', 'Linux x64'])
      await expect(latest.getByRole('button', { name: `Download ${title('3.1.0')} for ${platform}` })).toBeVisible();

    // The release after the maintenance: the server's reason, and what to do in plain words.
    const blocked = card.getByRole('note');
    await expect(blocked).toContainText('renew your maintenance');
    await expect(blocked.getByRole('link', { name: 'the contact page' })).toHaveAttribute('href', '/contact');
    await expect(card.getByRole('article', { name: new RegExp(title('4.0.0')) })).toHaveCount(0);

    // The older ones it gives; a release no longer downloadable is not among them (docs/product/downloads.md).
    const older = card.getByRole('region', { name: 'Older releases' });
    await expect(older.getByRole('article', { name: title('3.0.0') })).toBeVisible();
    await expect(card.getByRole('article', { name: title('2.0.0') })).toHaveCount(0);
    await expect(older.getByRole('button', { name: `Download ${title('3.0.0')} for Windows x64` })).toBeVisible();

    await expectNoSidewaysScroll(page);
    await software.screenshot({ path: test.info().outputPath(`my-software-${width}.png`) });

    if (width === 1280) {
      // One platform's file, byte for byte, through its own gated link.
      const windows = release('latest').files.find((file) => file.platform === 'windows');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        latest.getByRole('button', { name: `Download ${title('3.1.0')} for Windows x64` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(windows?.name);
      expect(await sha256Of(download)).toBe(windows?.sha256);
      // From a bucket, the bytes came from its presigned link (docs/decisions/0050-object-storage.md).
      if (E2E_STORAGE === 's3')
        expect(download.url()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${E2E_S3_PORT}/${E2E_S3_BUCKET}/private/downloads/[0-9a-f]{32}\\?X-Amz-Algorithm=`));
      await expect(latest.getByRole('button', { name: `Download ${title('3.1.0')} for Windows x64` })).toBeFocused();
    }
  });
}

test('a user without a license is told how to get one', async ({ browser }) => {
  const { context, page } = await verifiedUser(browser, { name: `Nolan None ${tag}`, email: `none-${tag}@example.com` }, 390);
  await page.goto('/dashboard');
  const software = page.getByRole('region', { name: 'My software' });
  await expect(software).toContainText('Your software appears here once you have a license.');
  await expect(software.getByRole('link', { name: 'Request License under Licenses' })).toHaveAttribute('href', '#licenses-heading');
  await expect(page.getByRole('button', { name: 'Request License' })).toBeVisible();
  await context.close();
});

test('the public page gives releases their per-platform links only for whoever may download them', async ({ browser }) => {
  await waitForPublish(admin.request);
  const { page } = customer;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/downloads');
  // The previous version the license gives, on its card: a Download per platform, the bytes of that file.
  const previous = page.locator('.download-card').filter({ hasText: title('3.0.0') });
  const windows = previous.getByRole('button', { name: `Download ${title('3.0.0')} for Windows x64` });
  await expect(windows).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), windows.click()]);
  expect(await sha256Of(download)).toBe(release('previous').files.find((file) => file.platform === 'windows')?.sha256);
  await expect(
    page
      .locator('.download-card')
      .filter({ hasText: title('3.1.0') })
      .getByRole('button', { name: `Download ${title('3.1.0')} for macOS ARM64` }),
  ).toBeVisible();
  // Released after the maintenance ended: no buttons, and why, in words.
  const future = page.locator('.download-card').filter({ hasText: title('4.0.0') });
  await expect(future.getByRole('button', { name: /^Download/ })).toHaveCount(0);
  await expect(future.getByRole('note')).toContainText('None of your licenses includes this release.');
  // No longer downloadable: its notes for everyone, its files for nobody but admins.
  const row = page.locator('.previous-releases tr').filter({ hasText: title('2.0.0') });
  await expect(row).toContainText('first');
  await expect(row.getByRole('list', { name: `Files of ${title('2.0.0')}` })).toBeHidden();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: test.info().outputPath('downloads-customer-1280.png'), fullPage: true });

  // The admin's list gives that previous release its per-platform Download.
  const adminPage = await admin.newPage();
  await adminPage.goto('/downloads');
  const adminRow = adminPage.locator('.previous-releases tr[data-admin-release-id]').filter({ hasText: title('2.0.0') });
  await expect(adminRow.getByRole('button', { name: `Download ${title('2.0.0')} for All platforms` })).toBeVisible();
  await adminPage.close();

  // Anonymous readers see the notes and the files, but no buttons and no files of previous releases.
  const anonymous = await browser.newContext({ viewport: { width: 390, height: 900 } });
  const reader = await anonymous.newPage();
  await reader.goto('/downloads');
  const readerRow = reader.locator('.previous-releases tr').filter({ hasText: title('2.0.0') });
  await expect(readerRow).toContainText('first');
  await expect(readerRow.getByRole('list', { name: `Files of ${title('2.0.0')}` })).toBeHidden();
  await expect(
    reader
      .locator('.download-card')
      .filter({ hasText: title('3.1.0') })
      .getByText('macOS ARM64'),
  ).toBeVisible();
  await expect(
    reader
      .locator('.download-card')
      .filter({ hasText: title('3.1.0') })
      .getByRole('button', { name: /^Download/ }),
  ).toHaveCount(0);
  await expectNoSidewaysScroll(reader);
  await reader.screenshot({ path: test.info().outputPath('downloads-anonymous-390.png'), fullPage: true });
  await anonymous.close();
});

async function readRelease(request: APIRequestContext, id: number) {
  const response = await request.get(`/api/downloads/${id}`);
  expect(response.status()).toBe(200);
  const body = (await response.json()) as Record<string, unknown>;
  return (body.release ?? body) as {
    version: string | null;
    channel: string;
    released_at: string;
    entitlement: string | null;
    files: { platform: string; arch: string }[];
  };
}

for (const width of [1280, 390]) {
  test(`the admin's release form edits version, channel, date, entitlement and files at ${width} px`, async () => {
    const page = await admin.newPage();
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/downloads');
    const form = page.getByRole('form', { name: 'Add a release' });
    const name = `Beta ${tag} ${width}`;
    await form.getByLabel('Title', { exact: true }).fill(name);
    await form.getByLabel('Downloadable', { exact: true }).uncheck();
    // Not a semantic version: the server's words under the field, focus on it, nothing stored.
    await form.getByLabel('Version', { exact: true }).fill('5.0');
    await form.getByRole('button', { name: 'Add Release' }).click();
    const version = form.getByLabel('Version', { exact: true });
    await expect(version).toHaveAttribute('aria-invalid', 'true');
    await expect(version).toBeFocused();
    await expect(page.locator('[data-admin-release-id]').filter({ hasText: name })).toHaveCount(0);

    await version.fill('5.0.0-beta.1');
    await form.getByLabel('Channel', { exact: true }).selectOption('beta');
    await form.getByLabel('Release date', { exact: true }).fill('2026-12-24');
    const entitlement = form.getByLabel('Entitlement', { exact: true });
    await entitlement.fill(ENTITLEMENT);
    await expect(entitlement).toHaveAccessibleDescription(new RegExp(`For licenses that include ${ENTITLEMENT} \\(${TYPE_NAME}\\)`));
    await form.getByRole('button', { name: 'Add Release' }).click();
    await expect(form.locator('.form-message__text--success')).toHaveText('Release created.');

    const listed = page.locator('[data-admin-release-id]').filter({ hasText: name });
    await expect(listed).toBeVisible();
    await listed.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('form', { name: `Edit release: ${name}` });
    await expect(edit.getByLabel('Version', { exact: true })).toHaveValue('5.0.0-beta.1');
    await expect(edit.getByLabel('Channel', { exact: true })).toHaveValue('beta');
    await expect(edit.getByLabel('Release date', { exact: true })).toHaveValue('2026-12-24');
    await expect(edit.getByLabel('Entitlement', { exact: true })).toHaveValue(ENTITLEMENT);

    // Files: add one for Linux ARM64 with the upload's progress, then delete it after the confirmation.
    const files = page.getByRole('region', { name: `Files of ${name}` });
    await expect(files).toContainText('This release has no file yet.');
    const adding = files.getByRole('form', { name: 'Add a file' });
    const upload = fileBytes(`beta-${tag}`);
    const bigger = Buffer.concat([upload.bytes, crypto.randomBytes(3 * 1024 * 1024)]);
    await adding.getByLabel('File to add').setInputFiles({ name: `beta-${tag}-linux.bin`, mimeType: 'application/octet-stream', buffer: bigger });
    await adding.getByLabel('Platform').selectOption('linux');
    await adding.getByLabel('Architecture').selectOption('arm64');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 2 * 1024 * 1024 });
    await adding.getByRole('button', { name: 'Upload File' }).click();
    const modal = page.getByRole('dialog', { name: 'Loading' });
    await expect(modal.getByRole('progressbar', { name: 'Progress' })).toBeVisible();
    await expect(modal).toContainText(`beta-${tag}-linux.bin`);
    await expect(adding.locator('.form-message__text--success')).toHaveText(`beta-${tag}-linux.bin added for Linux ARM64.`);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const fileRow = files.getByRole('listitem').filter({ hasText: 'Linux ARM64' });
    await expect(fileRow).toContainText(`beta-${tag}-linux.bin`);
    await expect(fileRow.locator('code')).toHaveText(crypto.createHash('sha256').update(bigger).digest('hex'));
    await expectNoSidewaysScroll(page);
    await page.getByRole('region', { name: 'Manage releases' }).screenshot({ path: test.info().outputPath(`release-form-${width}.png`) });

    const deleteButton = files.getByRole('button', { name: `Delete beta-${tag}-linux.bin (Linux ARM64)` });
    await deleteButton.click();
    const question = page.getByRole('dialog', { name: 'Delete file' });
    await expect(question).toContainText(`Delete beta-${tag}-linux.bin (Linux ARM64) from "${name}"?`);
    await question.getByRole('button', { name: 'Cancel' }).click();
    await expect(fileRow).toBeVisible();
    await deleteButton.click();
    await question.getByRole('button', { name: 'Delete File' }).click();
    await expect(files).toContainText('This release has no file yet.');
    await expect(files.getByRole('heading', { name: `Files of ${name}` })).toBeFocused();

    const id = Number(await listed.first().getAttribute('data-admin-release-id'));
    const stored = await readRelease(admin.request, id);
    expect(stored).toMatchObject({ version: '5.0.0-beta.1', channel: 'beta', entitlement: ENTITLEMENT, files: [] });
    expect(stored.released_at.slice(0, 10)).toBe('2026-12-24');
    await admin.request.delete('/api/downloads/delete', { headers: await xsrfHeaders(admin.request), data: { id } });

    if (width === 1280) {
      // Editing another field of a release leaves its release date, time of day included, as it was.
      const old = page.locator('[data-admin-release-id]').filter({ hasText: title('2.0.0') });
      await old.getByRole('button', { name: `Edit ${title('2.0.0')}` }).click();
      const editOld = page.getByRole('form', { name: `Edit release: ${title('2.0.0')}` });
      await expect(editOld.getByLabel('Release date', { exact: true })).toHaveValue('2026-01-15');
      await editOld.getByLabel('Release', { exact: true }).fill('2.0');
      await editOld.getByRole('button', { name: 'Update Release' }).click();
      await expect(page.locator('.release-form .form-message__text--success')).toHaveText('Release updated.');
      expect((await readRelease(admin.request, release('old').id)).released_at).toBe('2026-01-15T10:30:00.000Z');
    }
    await page.close();
  });
}

test('the admin reads the download statistics as a table and a chart', async () => {
  const page = await admin.newPage();
  await page.goto('/downloads');
  const stats = page.getByRole('region', { name: 'Download statistics' });
  await expect(stats.getByLabel('Period')).toHaveValue('30');
  // The customer downloaded 3.1.0 and 3.0.0 for Windows above (each counted once per day).
  const table = stats.getByRole('table', { name: /^Downloads by version and platform/ });
  await expect(table.getByRole('row', { name: /^3\.1\.0/ })).toBeVisible();
  const header = await table.locator('thead th').allTextContents();
  const windowsColumn = header.indexOf('Windows');
  expect(windowsColumn).toBeGreaterThan(0);
  const row = table.getByRole('row', { name: /^3\.1\.0/ });
  await expect(row.locator('th, td').nth(windowsColumn)).not.toHaveText('0');
  await expect(stats.getByRole('img', { name: /Bar chart of downloads by version in the last 30 days/ })).toBeVisible();
  await expect(stats.getByText(/update checks in the last 30 days/)).toBeVisible();
  await stats.getByLabel('Period').selectOption('7');
  await expect(stats.getByRole('table', { name: 'Downloads by version and platform, last 7 days' })).toBeVisible();
  await stats.screenshot({ path: test.info().outputPath('download-stats-1280.png') });
  await page.setViewportSize({ width: 390, height: 900 });
  await expectNoSidewaysScroll(page);
  await stats.screenshot({ path: test.info().outputPath('download-stats-390.png') });
  await page.close();
});
