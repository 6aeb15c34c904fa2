// The downloads page as its three kinds of visitor meet it (issue 6, "Tests that must exist"): an admin
// adds a release with a file through the page's form and watches the upload's progress; a verified user
// downloads it and gets exactly the bytes that were uploaded; an anonymous reader gets the warning and no
// working download. The tests run in order: each builds on the release the first one added.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN, E2E_S3_BUCKET, E2E_S3_PORT, E2E_STORAGE } from './env.ts';
import { solveBotChallenge } from '../helpers/botcheck.ts';
import { latestMailTo, linksIn } from '../helpers/mail.ts';

// Two tests wait for a publish (a real astro build), which takes longer while other builds share the machine.
test.describe.configure({ mode: 'serial', timeout: 150_000 });

const stamp = Date.now();
const RELEASE = {
  title: `Gauge Studio ${stamp}`,
  version: '9.1.0',
  body: 'Adds **probe calibration** and ==faster== reports.',
  filename: `gauge-studio-${stamp}.bin`,
};
// Random bytes, so a download that returned anything else could not match by accident; big enough that
// the upload reports progress more than once while throttled.
const FILE_BYTES = crypto.randomBytes(3 * 1024 * 1024 + 123);
const FILE_SHA256 = crypto.createHash('sha256').update(FILE_BYTES).digest('hex');
const READER = { name: 'Vera Fied', email: `vera-${stamp}@example.com`, password: 'plum-tractor-49-lantern' };

const outboxDir = () => path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');

/** Logs in through the nav bar's Login button and the Login Form modal (bot check included). */
async function loginThroughUi(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto('/downloads');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Login Form' });
  await dialog.getByLabel('Email', { exact: true }).fill(account.email);
  await dialog.getByLabel('Password', { exact: true }).fill(account.password);
  await dialog.getByRole('button', { name: 'Login' }).click();
  // Admins land on /admin, everyone else on /dashboard (docs/product/routes.md#navigation-bar).
  await page.waitForURL(/\/(admin|dashboard)$/);
}

/** Records every state the loading modal's progress bar shows, however briefly. */
async function recordProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: { value: string | null; name: string | null }[] = [];
    (window as unknown as { progressSeen: typeof seen }).progressSeen = seen;
    new MutationObserver(() => {
      const bar = document.querySelector('.loading-modal [role="progressbar"]');
      if (!bar) return;
      const entry = { value: bar.getAttribute('aria-valuenow'), name: document.querySelector('.loading-modal__name')?.textContent ?? null };
      const last = seen.at(-1);
      if (!last || last.value !== entry.value || last.name !== entry.name) seen.push(entry);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}

async function waitForLive(page: Page): Promise<void> {
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 60_000 });
}

test('an admin adds a release with a file through the page, with upload progress, and it is listed with its count', async ({ page }) => {
  await loginThroughUi(page, E2E_ADMIN);
  await page.goto('/downloads');
  const form = page.getByRole('form', { name: 'Add a release' });
  await expect(form).toBeVisible();

  // Nothing filled in: the server's first message per field, tied to the field, and the notice in error style.
  await form.getByLabel('Downloadable', { exact: true }).check();
  await form.getByRole('button', { name: 'Add Release' }).click();
  const title = form.getByLabel('Title', { exact: true });
  await expect(title).toHaveAttribute('aria-invalid', 'true');
  await expect(title).toHaveAccessibleDescription('The title field is required.');
  await expect(form.locator('.form-message__text--error')).toHaveText('The title field is required.');
  await expect(title).toBeFocused();
  // A downloadable release needs its file (the API checks this once the text fields are valid).
  await title.fill(RELEASE.title);
  await form.getByRole('button', { name: 'Add Release' }).click();
  await expect(form.getByLabel('File', { exact: true })).toHaveAccessibleDescription(/The file field is required when the release is downloadable\./);
  await expect(form.getByLabel('File', { exact: true })).toBeFocused();
  await expect(title).not.toHaveAttribute('aria-invalid', 'true');

  await form.getByLabel('Release', { exact: true }).fill(RELEASE.version);
  await form.getByLabel('Body', { exact: true }).fill(RELEASE.body);
  await form.getByLabel('Current release', { exact: true }).check();
  await form.getByLabel('File', { exact: true }).setInputFiles({ name: RELEASE.filename, mimeType: 'application/octet-stream', buffer: FILE_BYTES });

  // Slow the upload down (about 1.5 s) so its progress is there to see, as on a real connection.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 2 * 1024 * 1024 });
  await recordProgress(page);
  await form.getByRole('button', { name: 'Add Release' }).click();
  const modal = page.getByRole('dialog', { name: 'Loading' });
  await expect(modal.getByRole('progressbar', { name: 'Progress' })).toBeVisible();
  await expect(modal).toContainText(RELEASE.filename);
  await expect(form.locator('.form-message__text--success')).toHaveText('Release created.');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  const seen = await page.evaluate(() => (window as unknown as { progressSeen: { value: string | null; name: string | null }[] }).progressSeen);
  const values = seen.filter((entry) => entry.name === RELEASE.filename).map((entry) => Number(entry.value));
  expect(values.length, JSON.stringify(seen)).toBeGreaterThan(1);
  expect(
    values.some((value) => value > 0 && value < 100),
    JSON.stringify(values),
  ).toBe(true);

  // Listed from the API at once (the static page follows after the publish), current first, with its count.
  const card = page.locator('[data-admin-release-id]').filter({ hasText: RELEASE.title });
  await expect(card).toBeVisible();
  await expect(page.locator('.download-card').first()).toContainText(RELEASE.title);
  await expect(card).toContainText(`Version ${RELEASE.version}`);
  await expect(card).toContainText(RELEASE.filename);
  await expect(card).toContainText('3.0 MB');
  await expect(card.locator('code')).toHaveText(FILE_SHA256);
  // The admin's card draws the same file facts with the React copy button, which copies the same hash.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await card.getByRole('button', { name: `Copy the SHA-256 of ${RELEASE.filename}` }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(FILE_SHA256);
  await expect(card.locator('[data-download-count]')).toHaveText('0 downloads');
  await expect(card.locator('strong')).toHaveText('probe calibration');
  await expect(card.getByRole('button', { name: `Edit ${RELEASE.title}` })).toBeVisible();
  await expect(card.getByRole('button', { name: `Delete ${RELEASE.title}` })).toBeVisible();

  // The publish that brings it to readers.
  await waitForLive(page);
  await page.reload();
  await expect(page.locator('[data-admin-release-id]').filter({ hasText: RELEASE.title })).toBeVisible();
});

test('a verified user downloads the release and gets the uploaded bytes; the admin sees the count', async ({ browser, page }) => {
  // The reader copies the file's SHA-256 below, and the test reads back what was copied.
  const reader = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const readerPage = await reader.newPage();
  await registerReader(readerPage);

  // Logged in but not verified: the warning says why, and there is no Download button.
  await loginThroughUi(readerPage, READER);
  await readerPage.goto('/downloads');
  const warning = readerPage.locator('[data-download-warning]');
  await expect(warning).toContainText('Only verified user can use download!');
  const card = readerPage.locator('.download-card').filter({ hasText: RELEASE.title });
  await expect(card).toBeVisible();
  await expect(card.getByRole('button', { name: /Download/ })).toHaveCount(0);

  // The link from the verification mail, then the page again.
  await readerPage.goto(await verificationLink());
  await readerPage.goto('/downloads');
  await expect(warning).toBeHidden();
  const button = card.getByRole('button', { name: `Download ${RELEASE.title}` });
  await expect(button).toBeVisible();
  await expect(card.locator('code')).toHaveText(FILE_SHA256);
  // The static page's copy button, enabled by its script, puts the hash on the clipboard and says so.
  await card.getByRole('button', { name: `Copy the SHA-256 of ${RELEASE.filename}` }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
  expect(await readerPage.evaluate(() => navigator.clipboard.readText())).toBe(FILE_SHA256);

  const downloadEvent = readerPage.waitForEvent('download');
  await button.click();
  const download = await downloadEvent;
  expect(download.suggestedFilename()).toBe(RELEASE.filename);
  const saved = await download.path();
  const bytes = fs.readFileSync(saved);
  expect(bytes.length).toBe(FILE_BYTES.length);
  expect(bytes.equals(FILE_BYTES)).toBe(true);
  // From a bucket the page asked for the link and the browser fetched the bytes from the bucket itself
  // (docs/decisions/0050-object-storage.md); from the local store they came through the page.
  if (E2E_STORAGE === 's3')
    expect(download.url()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${E2E_S3_PORT}/${E2E_S3_BUCKET}/private/downloads/[0-9a-f]{32}\\?X-Amz-Algorithm=`));
  await expect(button).toBeFocused();
  await reader.close();

  // Issue 6 item 5: the completed download is counted for the admin.
  await loginThroughUi(page, E2E_ADMIN);
  await page.goto('/downloads');
  await expect(page.locator('[data-admin-release-id]').filter({ hasText: RELEASE.title }).locator('[data-download-count]')).toHaveText('1 download');
});

test('an anonymous reader sees the warning and no working download', async ({ page }) => {
  await page.goto('/downloads');
  await expect(page.getByText('You must login to download software!')).toBeVisible();
  const card = page.locator('.download-card').filter({ hasText: RELEASE.title });
  await expect(card).toBeVisible();
  // Once the page has settled (the account area shows Login), still no download control anywhere.
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
  const main = page.getByRole('main');
  await expect(main.getByRole('button', { name: /Download/ })).toHaveCount(0);
  await expect(main.getByRole('link', { name: /Download/ })).toHaveCount(0);
  await expect(page.locator('[data-downloads-page] form')).toHaveCount(0);

  // And the endpoints themselves refuse, with the message of docs/product/roles.md.
  const id = Number(await card.getAttribute('data-download-id'));
  await page.request.get('/sanctum/csrf-cookie');
  const post = await page.request.post('/api/downloads/download', { data: { id }, headers: await clientHeaders(page.request) });
  expect(post.status()).toBe(401);
  expect(((await post.json()) as { message: string }).message).toBe('You must be logged in to use download');
  const get = await page.request.get(`/api/downloads/file/${id}`);
  expect(get.status()).toBe(401);
  expect(((await get.json()) as { message: string }).message).toBe('You must be logged in to use download');
});

/** The headers the browser client sends with a write. */
async function clientHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const xsrf = (await request.storageState()).cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
  return { 'X-XSRF-TOKEN': decodeURIComponent(xsrf), 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
}

/** POST /api/auth/create the way the registration form does (XSRF cookie, solved bot check). */
async function registerReader(page: Page): Promise<void> {
  const request = page.request;
  await request.get('/sanctum/csrf-cookie');
  const g_token = await solveBotChallenge({ request: async (route) => new Response(await (await request.get(route)).text()) });
  const response = await request.post('/api/auth/create', {
    data: { name: READER.name, email: READER.email, password: READER.password, password_confirmation: READER.password, g_token },
    headers: await clientHeaders(request),
  });
  expect(response.status(), await response.text()).toBe(201);
}

async function verificationLink(): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(() => {
      link = linksIn(latestMailTo(outboxDir(), READER.email)?.text).find((candidate) => candidate.includes('/email/verify'));
      return link;
    })
    .toBeTruthy();
  return link!;
}

test('an admin edits the release without a new file (the file stays) and deletes it after confirming', async ({ page }) => {
  await loginThroughUi(page, E2E_ADMIN);
  await page.goto('/downloads');
  const card = page.locator('[data-admin-release-id]').filter({ hasText: RELEASE.title });
  await card.getByRole('button', { name: `Edit ${RELEASE.title}` }).click();
  const form = page.getByRole('form', { name: `Edit release: ${RELEASE.title}` });
  await expect(form.getByLabel('Title', { exact: true })).toBeFocused();
  await expect(form.getByLabel('Release', { exact: true })).toHaveValue(RELEASE.version);
  await expect(form.getByLabel('File', { exact: true })).toHaveAccessibleDescription(`Leave empty to keep ${RELEASE.filename}.`);
  const renamed = `${RELEASE.title} LTS`;
  await form.getByLabel('Title', { exact: true }).fill(renamed);
  await form.getByRole('button', { name: 'Update Release' }).click();
  await expect(page.locator('.form-message__text--success')).toHaveText('Release updated.');
  await expect(page.getByRole('form', { name: 'Add a release' })).toBeVisible();
  const edited = page.locator('[data-admin-release-id]').filter({ hasText: renamed });
  await expect(edited.locator('code')).toHaveText(FILE_SHA256);
  await expect(edited.locator('[data-download-count]')).toHaveText('1 download');

  // Cancel keeps it; Delete, after the hard-delete warning, deletes it.
  const question = page.getByRole('dialog', { name: 'Delete release' });
  await edited.getByRole('button', { name: `Delete ${renamed}` }).click();
  await expect(question).toContainText('This operation will hard delete data from database!!!');
  await expect(question.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(question).toBeHidden();
  await expect(edited).toBeVisible();
  await edited.getByRole('button', { name: `Delete ${renamed}` }).click();
  await question.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.locator('.form-message__text--success')).toHaveText('Release deleted.');
  await expect(edited).toHaveCount(0);
  await waitForLive(page);
  await page.context().clearCookies();
  await page.goto('/downloads');
  await expect(page.getByText(renamed)).toHaveCount(0);
});
