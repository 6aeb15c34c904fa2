// A user's own data in the browser (issue 13, item 5; docs/product/accounts.md#your-data): a registered,
// verified user downloads their data from the dashboard (the file is checked), then deletes the account
// through the dialog with the keyboard, lands home with the notice, and can no longer log in.
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { PASSWORD, logInThroughApi, pathOf, registerAccount, uniqueEmail, waitForMailLink } from './accounts-support.ts';

test('a verified user downloads their data, then deletes the account; logging in afterwards fails', async ({ page, context }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  const email = uniqueEmail('own-data');
  await registerAccount(context.request, { name: 'Olga Owner', email, password: PASSWORD });
  await page.goto(pathOf(await waitForMailLink(email, '/api/auth/email/verify/')));
  await expect(page.getByText('Your email has been verified.')).toBeVisible();
  await logInThroughApi(context.request, email, PASSWORD);

  await page.goto('/dashboard');
  const card = page.getByRole('region', { name: 'Your data' });
  await expect(card).toBeVisible();
  // Nothing wider than the phone's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await card.screenshot({ path: test.info().outputPath('your-data-card-390.png') });

  // Download my data: a plain link, the session cookie is all it needs.
  const downloading = page.waitForEvent('download');
  await card.getByRole('link', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^account-data-\d{4}-\d{2}-\d{2}\.json$/);
  const text = fs.readFileSync(await download.path(), 'utf8');
  const data = JSON.parse(text) as {
    format: string;
    version: number;
    profile: { email: string; name: string; email_verified_at: string | null };
    licenses: unknown[];
    sessions: Array<{ current: boolean }>;
    downloads: unknown[];
    mailings_received: unknown[];
    contact_messages: unknown[];
  };
  expect(data).toMatchObject({ format: 'account-data-export', version: 1, profile: { email, name: 'Olga Owner' }, licenses: [], downloads: [] });
  expect(data.profile.email_verified_at).toBeTruthy();
  expect(data.sessions.some((session) => session.current)).toBe(true);
  expect(text).not.toContain('password');

  // Delete my account, by keyboard: the dialog names what goes and starts on the password.
  const deleteButton = card.getByRole('button', { name: 'Delete my account' });
  await deleteButton.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Delete your account' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(email);
  await expect(dialog).toContainText('signed out on every device');
  // No two-factor on: no code field.
  await expect(dialog.getByLabel('Code from the app')).toHaveCount(0);
  const password = dialog.getByLabel('Password');
  await expect(password).toBeFocused();
  await page.screenshot({ path: test.info().outputPath('delete-dialog-390.png') });

  // A wrong password: the error under the field, focus back on it, nothing deleted.
  await page.keyboard.type('not my password');
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('The password is incorrect.')).toBeVisible();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(password).toBeFocused();

  await password.fill(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/$/);
  const notice = page.getByRole('status').filter({ hasText: 'Your account has been deleted.' });
  await expect(notice).toBeVisible();
  await expect(notice).toBeFocused();
  await page.screenshot({ path: test.info().outputPath('home-notice-390.png') });
  // Signed out: the nav bar (in the phone's closed menu) offers Login again.
  const nav = page.getByRole('navigation', { name: /main/i });
  await expect(nav.getByRole('button', { name: 'Login', includeHidden: true })).toBeAttached();
  expect((await context.cookies()).find((cookie) => cookie.name === 'session')).toBeUndefined();

  // A reload does not repeat the notice.
  await page.reload();
  await expect(nav.getByRole('button', { name: 'Login', includeHidden: true })).toBeAttached();
  await expect(page.getByText('Your account has been deleted.')).toHaveCount(0);

  // The account is gone: logging in with it fails.
  await page.getByRole('button', { name: /menu/i }).click();
  await nav.getByRole('button', { name: 'Login' }).click();
  const login = page.getByRole('dialog', { name: 'Login Form' });
  await login.getByLabel('Email').fill(email);
  await login.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await login.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(login.getByText('These credentials do not match our records.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});
