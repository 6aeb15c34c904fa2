// Account security in the browser (issue 13, items 2-4; docs/product/accounts.md#sessions, #change-password,
// #change-e-mail): sign out another session from a second browser, change the password, change the e-mail
// through the link in the outbox. At 390 px wide, with the keyboard where it matters.
import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN } from './env.ts';
import { logInThroughApi, NEW_PASSWORD, PASSWORD, pathOf, registerAccount, uniqueEmail, waitForMailLink } from './accounts-support.ts';

async function expectNoSideways(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test('a session signed out from another browser is logged out on its next load', async ({ browser }) => {
  const email = uniqueEmail('sessions');
  const laptop = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone = await browser.newContext();
  await registerAccount(laptop.request, { name: 'Sam Sessions', email, password: PASSWORD });
  await logInThroughApi(phone.request, email, PASSWORD);
  await logInThroughApi(laptop.request, email, PASSWORD);

  const phonePage = await phone.newPage();
  await phonePage.goto('/dashboard');
  await expect(phonePage.getByRole('heading', { name: 'Where you’re signed in' })).toBeVisible();
  await phonePage.screenshot({ path: test.info().outputPath('sessions-desktop.png'), fullPage: true });

  const page = await laptop.newPage();
  await page.goto('/dashboard');
  const section = page.getByRole('region', { name: 'Where you’re signed in' });
  const items = section.getByRole('listitem');
  await expect(items).toHaveCount(2);
  await expect(items.filter({ hasText: 'This device' })).toHaveCount(1);
  await expect(items.first()).toContainText('This device');
  await expect(items.first()).toContainText(/^Chrome \d+ on /);
  await expect(items.first()).toContainText(/signed in .* last active/);
  await expectNoSideways(page);
  await page.screenshot({ path: test.info().outputPath('sessions-390.png'), fullPage: true });

  // By keyboard: the other session's Sign out, then the dialog's own Sign out button.
  const signOut = items.nth(1).getByRole('button', { name: /^Sign out/ });
  await signOut.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Sign out' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Sign out' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(section.getByText(/has been signed out\./)).toBeVisible();
  await expect(items).toHaveCount(1);
  await expect(section.getByRole('button', { name: 'Sign out everywhere else' })).toHaveCount(0);

  // Signed out: the dashboard's guard sends the visitor home and asks for the login, to continue there.
  await phonePage.reload();
  await expect(phonePage).toHaveURL(/\/$/);
  const login = phonePage.getByRole('dialog', { name: 'Login Form' });
  await expect(login).toBeVisible();
  await expect(login.getByText('Log in to see your dashboard')).toBeVisible();
  expect((await phone.request.get('/api/user')).status()).toBe(401);

  await laptop.close();
  await phone.close();
});

test('the password is changed with the current one, and the other sessions end', async ({ browser }) => {
  const email = uniqueEmail('password');
  const main = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const other = await browser.newContext();
  await registerAccount(main.request, { name: 'Pat Password', email, password: PASSWORD });
  await logInThroughApi(other.request, email, PASSWORD);
  await logInThroughApi(main.request, email, PASSWORD);
  const page = await main.newPage();
  await page.goto('/dashboard');

  const form = page.getByRole('region', { name: 'Change password' });
  await form.getByLabel('Current password').fill('not-my-password-at-all');
  await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await form.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText('The password is incorrect.')).toBeVisible();
  await expect(form.getByLabel('Current password')).toBeFocused();

  await form.getByLabel('Current password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText('Your password has been changed. Every other session has been signed out.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Where you’re signed in' }).getByRole('listitem')).toHaveCount(1);
  expect((await other.request.get('/api/user')).status()).toBe(401);
  await waitForMailLink(email, '/reset-password');
  await expectNoSideways(page);

  await main.close();
  await other.close();
});

test('the e-mail is changed through the link mailed to the new address', async ({ browser }) => {
  const oldEmail = uniqueEmail('email-old');
  const newEmail = uniqueEmail('email-new');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await registerAccount(context.request, { name: 'Eve Email', email: oldEmail, password: PASSWORD });
  await logInThroughApi(context.request, oldEmail, PASSWORD);
  const page = await context.newPage();
  await page.goto('/dashboard');

  const form = page.getByRole('region', { name: 'Change e-mail' });
  await expect(form.getByText(oldEmail)).toBeVisible();
  await form.getByLabel('New e-mail address').fill(newEmail);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(form.getByText(`Check your new inbox: we sent a link to ${newEmail}.`, { exact: false })).toBeVisible();
  await expectNoSideways(page);
  await page.screenshot({ path: test.info().outputPath('email-change-390.png'), fullPage: true });

  // Nothing changed yet; the old address was told.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Change e-mail' }).getByText(oldEmail)).toBeVisible();
  await waitForMailLink(oldEmail, '/reset-password');

  const link = await waitForMailLink(newEmail, '/api/user/email/confirm/');
  await page.goto(pathOf(link));
  await expect(page).toHaveURL(/\/email\/verified\?validation=1/);
  await expect(page.getByText('Your e-mail address has been changed.')).toBeVisible();
  await page.getByRole('button', { name: 'Go To Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard\/?$/);
  await expect(page.getByRole('region', { name: 'Change e-mail' }).getByText(newEmail)).toBeVisible();

  // Followed twice, the link is dead and says so.
  await page.goto(pathOf(link));
  await expect(page.getByText('This e-mail change link is invalid or has expired.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Re-Send Validation Link' })).toHaveCount(0);

  await context.close();
});

test('an admin sees a user’s sessions in the user’s Details and signs them out everywhere', async ({ browser }) => {
  const email = uniqueEmail('admin-sessions');
  const user = await browser.newContext();
  await registerAccount(user.request, { name: 'Una Sessions', email, password: PASSWORD });
  await logInThroughApi(user.request, email, PASSWORD);
  const admin = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await logInThroughApi(admin.request, E2E_ADMIN.email, E2E_ADMIN.password);

  const page = await admin.newPage();
  await page.goto('/admin');
  await expect(page.getByText(/^Showing 1–/)).toBeVisible();
  await page.getByLabel('Filter users').fill(email);
  const row = page
    .getByRole('table', { name: /^Users table/ })
    .locator('tbody tr.admin-users__row')
    .filter({ hasText: email });
  await row.getByRole('button', { name: /^Details/ }).click();
  const sessions = page.getByRole('region', { name: 'Sessions' });
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  await expect(sessions.getByRole('listitem')).toContainText(/^Chrome \d+ on /);
  await expect(sessions.getByText('This device')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('admin-sessions-390.png'), fullPage: true });

  await sessions.getByRole('button', { name: /^Sign out everywhere/ }).click();
  await page.getByRole('dialog', { name: 'Sign out everywhere' }).getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(sessions.getByText('Una Sessions has been signed out everywhere.')).toBeVisible();
  await expect(sessions.getByText('Not signed in anywhere.')).toBeVisible();
  expect((await user.request.get('/api/user')).status()).toBe(401);

  await user.close();
  await admin.close();
});
