// The admin console as an admin uses it (issue 7, "Tests that must exist", browser part): sort and filter
// the users table, hide a column for good, ban and unban a user whose open session ends at once, grant a
// trial license that shows on the user's dashboard, ban and unban a domain, send a mailing and watch it
// complete, and regenerate the sitemap. Users are made through the real API (bot check solved in-process).
import path from 'node:path';
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { readOutbox } from '../helpers/mail.ts';
import { logInThroughApi as logIn, PASSWORD, registerAccount } from './accounts-support.ts';
import { E2E_ADMIN } from './env.ts';

/** A short tag that makes this run's users findable with the table's filter. */
function runTag(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

async function xsrfHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const xsrf = (await request.storageState()).cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
  return { 'X-XSRF-TOKEN': decodeURIComponent(xsrf), 'X-Requested-With': 'XMLHttpRequest' };
}

interface Account {
  name: string;
  email: string;
}

/** Registers users through the API in a throwaway context (registering must not sign this one in). */
async function createUsers(browser: Browser, accounts: Account[]): Promise<void> {
  const context = await browser.newContext();
  try {
    for (const account of accounts) await registerAccount(context.request, { ...account, password: PASSWORD });
  } finally {
    await context.close();
  }
}

async function openAdmin(browser: Browser, viewport?: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(viewport ? { viewport } : {});
  await logIn(context.request, E2E_ADMIN.email, E2E_ADMIN.password);
  const page = await context.newPage();
  await page.goto('/admin');
  await expect(page.getByText(/^Showing 1–/)).toBeVisible();
  return { context, page };
}

async function signedInAs(browser: Browser, email: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  await logIn(context.request, email, PASSWORD);
  return { context, page: await context.newPage() };
}

function usersTable(page: Page): Locator {
  return page.getByRole('table', { name: /^Users table/ });
}

async function filterUsers(page: Page, text: string): Promise<void> {
  await page.getByLabel('Filter users').fill(text);
  await expect(page.getByText(/filtered from/)).toBeVisible();
}

function rowOf(page: Page, email: string): Locator {
  return usersTable(page).locator('tbody tr.admin-users__row').filter({ hasText: email });
}

/** Chooses one of a row's actions from its Actions menu (Edit User, Delete User, Ban, UnBan). */
async function chooseRowAction(page: Page, row: Locator, action: RegExp): Promise<void> {
  await row.getByRole('button', { name: /^Actions/ }).click();
  await page.getByRole('menu').getByRole('menuitem', { name: action }).click();
}

/** The Name column of the rows shown, top to bottom. */
async function namesShown(page: Page): Promise<string[]> {
  return (await usersTable(page).locator('tbody th[scope="row"]').allTextContents()).map((name) => name.trim());
}

test.describe('admin console', () => {
  test('an admin sorts and filters the users table, and a hidden column stays hidden after a reload', async ({ browser }) => {
    const tag = runTag();
    // Case decides a plain sort ('Alpha', 'Charlie', 'beta'); the table ignores it.
    const names = [`beta ${tag}`, `Charlie ${tag}`, `Alpha ${tag}`];
    await createUsers(
      browser,
      names.map((name, index) => ({ name, email: `sort-${index}-${tag}@example.com` })),
    );
    const { context, page } = await openAdmin(browser);

    await filterUsers(page, tag);
    await expect(page.getByText('Showing 1–3 of 3 users', { exact: false })).toBeVisible();

    const nameHeader = usersTable(page).getByRole('columnheader', { name: 'Name', exact: true });
    await nameHeader.getByRole('button').click();
    await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(await namesShown(page)).toEqual([`Alpha ${tag}`, `beta ${tag}`, `Charlie ${tag}`]);

    await nameHeader.getByRole('button').click();
    await expect(nameHeader).toHaveAttribute('aria-sort', 'descending');
    expect(await namesShown(page)).toEqual([`Charlie ${tag}`, `beta ${tag}`, `Alpha ${tag}`]);

    // Another column starts ascending; the Name header is no longer the sorted one.
    const emailHeader = usersTable(page).getByRole('columnheader', { name: 'Email', exact: true });
    await emailHeader.getByRole('button').click();
    await expect(emailHeader).toHaveAttribute('aria-sort', 'ascending');
    await expect(nameHeader).not.toHaveAttribute('aria-sort', /.*/);
    expect(await namesShown(page)).toEqual([`beta ${tag}`, `Charlie ${tag}`, `Alpha ${tag}`]);

    // The filter looks at what is shown: one user by a part of the address.
    await page.getByLabel('Filter users').fill(`sort-2-${tag}`);
    await expect.poll(() => namesShown(page)).toEqual([`Alpha ${tag}`]);

    // Table Display Filter: hide Company Name; the choice outlives a reload.
    await page.getByRole('button', { name: 'Table Display Filter' }).click();
    const chooser = page.getByRole('dialog', { name: 'Table Display Filter' });
    await expect(chooser.getByRole('checkbox')).not.toHaveCount(0);
    for (const box of await chooser.getByRole('checkbox').all()) await expect(box).toBeChecked();
    await chooser.getByRole('checkbox', { name: 'Company Name' }).uncheck();
    await chooser.getByRole('button', { name: 'Done' }).click();
    await expect(chooser).toBeHidden();
    await expect(usersTable(page).getByRole('columnheader', { name: 'Company Name' })).toHaveCount(0);
    await expect(usersTable(page).getByRole('columnheader', { name: 'Surname' })).toHaveCount(1);

    await page.reload();
    await expect(page.getByText(/^Showing 1–/)).toBeVisible();
    await expect(usersTable(page).getByRole('columnheader', { name: 'Email', exact: true })).toBeVisible();
    await expect(usersTable(page).getByRole('columnheader', { name: 'Company Name' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Table Display Filter' }).click();
    await expect(chooser.getByRole('checkbox', { name: 'Company Name' })).not.toBeChecked();
    await chooser.getByRole('button', { name: 'Show all columns' }).click();
    await page.keyboard.press('Escape');
    await expect(chooser).toBeHidden();
    await expect(usersTable(page).getByRole('columnheader', { name: 'Company Name' })).toHaveCount(1);
    // Focus goes back to the button that opened the dialog.
    await expect(page.getByRole('button', { name: 'Table Display Filter' })).toBeFocused();
    await context.close();
  });

  test('an admin bans a user, whose open session ends at once, then unbans them; banning oneself is refused', async ({ browser }) => {
    const tag = runTag();
    const account = { name: `Banned Bob ${tag}`, email: `ban-${tag}@example.com` };
    await createUsers(browser, [account]);
    const user = await signedInAs(browser, account.email);
    await user.page.goto('/dashboard');
    await expect(user.page.getByRole('region', { name: 'Your details' })).toBeVisible();

    const { context, page } = await openAdmin(browser);
    await filterUsers(page, tag);
    const row = rowOf(page, account.email);
    await chooseRowAction(page, row, /^Ban\b/);
    const confirmBan = page.getByRole('dialog', { name: 'Ban User' });
    await expect(confirmBan).toContainText(`Are you sure you want to BAN ${account.name}?`);
    // The confirmation starts on Cancel: an Enter by habit bans nobody.
    await expect(confirmBan.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await confirmBan.getByRole('button', { name: 'Ban', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: `User banned. (${account.name})` })).toBeVisible();
    await expect(row).toHaveClass(/admin-users__row--banned/);
    await expect(row.getByText('Banned', { exact: true })).toBeVisible();
    await row.getByRole('button', { name: /^Actions/ }).click();
    await expect(page.getByRole('menuitem', { name: /^UnBan\b/ })).toBeVisible();
    await page.keyboard.press('Escape');

    // The user's session is gone: the API says 401, and the open dashboard notices on its next call.
    expect((await user.context.request.get('/api/user', { headers: { 'X-Requested-With': 'XMLHttpRequest' } })).status()).toBe(401);
    await user.page.getByRole('button', { name: 'Request License' }).click();
    await expect(user.page.getByText('Please login to see dashboard!')).toBeVisible();

    // An admin cannot ban themselves: Ban is disabled on their own row, with the reason.
    await filterUsers(page, E2E_ADMIN.email);
    await rowOf(page, E2E_ADMIN.email)
      .getByRole('button', { name: /^Actions/ })
      .click();
    await expect(page.getByRole('menuitem', { name: /^Ban\b/ })).toHaveAttribute('aria-disabled', 'true');
    await expect(page.getByRole('menuitem', { name: /^Ban\b/ })).toHaveAccessibleDescription('You cannot ban yourself.');
    await page.keyboard.press('Escape');

    await filterUsers(page, tag);
    await chooseRowAction(page, row, /^UnBan\b/);
    const confirmUnban = page.getByRole('dialog', { name: 'UnBan User' });
    await expect(confirmUnban).toContainText(`Are you sure you want to UNBAN ${account.name}?`);
    await confirmUnban.getByRole('button', { name: 'UnBan', exact: true }).click();
    await expect(page.getByText(`User unbanned. (${account.name})`)).toBeVisible();
    await expect(row).not.toHaveClass(/admin-users__row--banned/);
    await row.getByRole('button', { name: /^Actions/ }).click();
    await expect(page.getByRole('menuitem', { name: /^Ban\b/ })).toBeVisible();
    await page.keyboard.press('Escape');

    // Unbanned, they can sign in again (the ended session stays ended).
    await logIn(user.context.request, account.email, PASSWORD);
    expect((await user.context.request.get('/api/user', { headers: { 'X-Requested-With': 'XMLHttpRequest' } })).status()).toBe(200);
    await user.context.close();
    await context.close();
  });

  test("an admin grants a trial license, which then shows on the user's dashboard", async ({ browser }) => {
    const tag = runTag();
    const account = { name: `Trial Tess ${tag}`, email: `trial-${tag}@example.com` };
    await createUsers(browser, [account]);
    const user = await signedInAs(browser, account.email);
    await user.page.goto('/dashboard');
    await expect(user.page.getByText('You have no license yet. Request a free trial license to try the software.')).toBeVisible();

    const { context, page } = await openAdmin(browser);
    await filterUsers(page, tag);
    const row = rowOf(page, account.email);
    await row.getByRole('button', { name: /^Details/ }).click();
    await expect(row.getByRole('button', { name: /^Details/ })).toHaveAttribute('aria-expanded', 'true');
    const card = page.getByRole('region', { name: `Details of ${account.name}` });
    await expect(card.getByText('License Requested')).toBeVisible();
    await expect(card.getByText('License Granted')).toBeVisible();
    const licenses = page.getByRole('region', { name: `Licenses of ${account.name}` });
    await expect(licenses.getByText('No licenses.')).toBeVisible();

    await licenses.getByRole('button', { name: 'Add License' }).click();
    const form = page.getByRole('dialog', { name: 'Add License' });
    // No type chosen: the server's message shows under the field.
    await form.getByRole('button', { name: 'Add License' }).click();
    await expect(form.getByText('The license type id field is required.')).toBeVisible();
    await expect(form.getByLabel('License type')).toBeFocused();

    // A perpetual license never expires (no days field); a trial is always active (no Active box).
    await form.getByLabel('License type').selectOption({ label: 'perpetual' });
    await expect(form.getByLabel('Expires after (days)')).toHaveCount(0);
    await expect(form.getByLabel('Active')).toBeVisible();
    await form.getByLabel('License type').selectOption({ label: 'trial' });
    await expect(form.getByLabel('Active')).toHaveCount(0);
    await expect(form.getByLabel('Expires after (days)')).toHaveValue('30');
    await form.getByLabel('Expires after (days)').fill('0');
    await form.getByRole('button', { name: 'Add License' }).click();
    await expect(form.getByText('A trial license needs an expiry of at least 1 day.')).toBeVisible();
    await form.getByLabel('Expires after (days)').fill('14');
    await form.getByRole('button', { name: 'Add License' }).click();
    await expect(form).toBeHidden();
    await expect(licenses.getByText(/^License granted/)).toBeVisible();
    const licenseRow = licenses.getByRole('row').filter({ hasText: 'trial' });
    // Cells: ID, Active, Activated at, Expiry (days), Expire date (the type is the row header).
    await expect(licenseRow.getByRole('cell').nth(1)).toHaveText('YES');
    await expect(licenseRow.getByRole('cell').nth(3)).toHaveText('14');
    await expect(row.locator('td.admin-users__cell--flag').nth(1)).toHaveText('YES');

    await user.page.reload();
    const licenseCard = user.page.getByRole('article', { name: 'License: trial' });
    await expect(licenseCard).toBeVisible();
    await expect(licenseCard).toContainText('YES');
    await expect(user.page.getByRole('button', { name: 'Request License' })).toHaveCount(0);

    // Edit opens the form in update mode with the license's values; Delete asks first.
    await licenseRow.getByRole('button', { name: /^Edit/ }).click();
    const update = page.getByRole('dialog', { name: /^Update License #\d+/ });
    await expect(update.getByLabel('Expires after (days)')).toHaveValue('14');
    await update.getByLabel('Expires after (days)').fill('45');
    await update.getByRole('button', { name: 'Update License' }).click();
    await expect(update).toBeHidden();
    await expect(licenseRow.getByRole('cell').nth(3)).toHaveText('45');
    await licenseRow.getByRole('button', { name: /^Delete/ }).click();
    const confirmDelete = page.getByRole('dialog', { name: 'Delete License' });
    await expect(confirmDelete).toContainText('This operation will hard delete data from database!!!');
    await confirmDelete.getByRole('button', { name: 'Delete License' }).click();
    await expect(licenses.getByText('License deleted.')).toBeVisible();
    await expect(licenses.getByText('No licenses.')).toBeVisible();
    await user.context.close();
    await context.close();
  });

  test('on a phone-sized window an admin edits a user (server errors per field) and deletes one after the warning', async ({ browser }) => {
    const tag = runTag();
    const keep = { name: `Edited Eve ${tag}`, email: `edit-${tag}@example.com` };
    const doomed = { name: `Deleted Dan ${tag}`, email: `delete-${tag}@example.com` };
    await createUsers(browser, [keep, doomed]);
    const { context, page } = await openAdmin(browser, { width: 600, height: 900 });
    await filterUsers(page, tag);

    // The wide table scrolls sideways inside a labelled region that takes keyboard focus.
    const scroller = page.getByRole('region', { name: /^Users table/ });
    await expect(scroller).toHaveAttribute('tabindex', '0');
    expect(await scroller.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    await scroller.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => scroller.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);

    await chooseRowAction(page, rowOf(page, keep.email), /^Edit User/);
    const form = page.getByRole('dialog', { name: `Edit User: ${keep.name}` });
    await expect(form.getByLabel('Name', { exact: true })).toBeFocused();
    await form.getByLabel('Email', { exact: true }).fill(doomed.email.toUpperCase());
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('The email has already been taken.')).toBeVisible();
    await expect(form.getByLabel('Email', { exact: true })).toBeFocused();
    await form.getByLabel('Email', { exact: true }).fill(keep.email);
    await form.getByLabel('Surname').fill(`Surname ${tag}`);
    await form.getByLabel('Email verified').check();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByText(`User updated. (${keep.name})`)).toBeVisible();
    await expect(rowOf(page, keep.email)).toContainText(`Surname ${tag}`);

    await chooseRowAction(page, rowOf(page, doomed.email), /^Delete User/);
    const confirmDelete = page.getByRole('dialog', { name: 'Delete User' });
    await expect(confirmDelete).toContainText('This operation will hard delete data from database!!!');
    await expect(confirmDelete).toContainText(doomed.email);
    // Cancel changes nothing.
    await confirmDelete.getByRole('button', { name: 'Cancel' }).click();
    await expect(rowOf(page, doomed.email)).toHaveCount(1);
    await chooseRowAction(page, rowOf(page, doomed.email), /^Delete User/);
    await confirmDelete.getByRole('button', { name: 'Delete User' }).click();
    await expect(page.getByText(`User deleted. (${doomed.name}, ${doomed.email})`)).toBeVisible();
    await expect(rowOf(page, doomed.email)).toHaveCount(0);
    await page.reload();
    await filterUsers(page, tag);
    await expect(rowOf(page, doomed.email)).toHaveCount(0);
    await expect(rowOf(page, keep.email)).toHaveCount(1);
    await context.close();
  });

  test('an admin bans a domain (its existing users listed), is told about duplicates and non-domains, and deletes it', async ({ browser }) => {
    const tag = runTag();
    const domain = `spam-${tag}.example`;
    await createUsers(browser, [{ name: `Spammer ${tag}`, email: `someone@mail.${domain}` }]);
    const { context, page } = await openAdmin(browser);

    await page.getByRole('button', { name: 'Manage Banned Domains', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage Banned Domains' });
    await expect(dialog.getByLabel('Domain', { exact: true })).toBeFocused();

    // Typed loosely; the server normalises it.
    await dialog.getByLabel('Domain', { exact: true }).fill(`@Spam-${tag}.EXAMPLE.`);
    await dialog.getByRole('button', { name: 'Add Domain' }).click();
    await expect(dialog.getByText(/^Domain banned\. 1 existing user has an address/)).toContainText(`someone@mail.${domain}`);
    const row = dialog.getByRole('row').filter({ hasText: domain });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('rowheader')).toHaveText(domain);
    await expect(row).toContainText('1 user');
    for (const header of ['ID', 'Domain', 'Date Banned', 'Date Updated'])
      await expect(dialog.getByRole('columnheader', { name: header, exact: true })).toBeVisible();

    await dialog.getByLabel('Domain', { exact: true }).fill(domain.toUpperCase());
    await dialog.getByRole('button', { name: 'Add Domain' }).click();
    await expect(dialog.getByText('This domain is already banned.')).toBeVisible();
    await expect(dialog.getByLabel('Domain', { exact: true })).toHaveAttribute('aria-invalid', 'true');

    await dialog.getByLabel('Domain', { exact: true }).fill('not a domain');
    await dialog.getByRole('button', { name: 'Add Domain' }).click();
    await expect(dialog.getByText('The domain must be a valid domain name, such as example.com.')).toBeVisible();

    await row.getByRole('button', { name: /^Delete Domain/ }).click();
    const confirmDelete = page.getByRole('dialog', { name: 'Delete Domain' });
    await expect(confirmDelete).toContainText(`Remove ${domain} from the banned list?`);
    await confirmDelete.getByRole('button', { name: 'Delete Domain' }).click();
    await expect(dialog.getByText(`Domain removed from the banned list. (${domain})`)).toBeVisible();
    await expect(dialog.getByRole('row').filter({ hasText: domain })).toHaveCount(0);
    // Still the domains dialog on top: Escape closes it and focus returns to its button.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Manage Banned Domains', exact: true })).toBeFocused();
    await context.close();
  });

  test('an admin sends a mailing to the ticked users and watches it complete', async ({ browser }) => {
    test.setTimeout(90_000);
    const tag = runTag();
    const accounts = [0, 1].map((index) => ({ name: `Reader ${index} ${tag}`, email: `mail-${index}-${tag}@example.com` }));
    await createUsers(browser, accounts);
    const { context, page } = await openAdmin(browser);
    await filterUsers(page, tag);
    for (const account of accounts) await rowOf(page, account.email).getByRole('checkbox').check();
    await expect(page.getByText('2 ticked for a mailing.')).toBeVisible();

    await page.getByRole('button', { name: 'Send Mail' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send Mailing' });
    await expect(dialog.getByRole('radio', { name: 'The users ticked in the table (2 users)' })).toBeChecked();
    await dialog.getByRole('button', { name: 'Send to 2 users' }).click();
    await expect(dialog.getByText('The title field is required.')).toBeVisible();
    await expect(dialog.getByText('The body field is required.')).toBeVisible();

    const title = `Release news ${tag}`;
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    // The preview draws formulas in the browser with the KaTeX its stylesheet belongs to: a formula's line box
    // opens with a strut the stylesheet makes an inline block (docs/decisions/0068-math-without-reparse.md).
    await dialog.getByLabel('Body (markdown)').fill('Stack-up $T_{\\text{RSS}}^2$');
    const formula = dialog.locator('.admin-markdown-preview .katex-html');
    await expect(formula).toBeVisible();
    await expect.poll(() => formula.evaluate((root) => getComputedStyle(root.firstElementChild!.firstElementChild!).display)).toBe('inline-block');
    await dialog.getByLabel('Body (markdown)').fill(`## What is new ${tag}\n\nThe **fastest** release yet.`);
    // The preview is the site's markdown pipeline.
    await expect(dialog.getByRole('heading', { name: `What is new ${tag}` })).toBeVisible();
    await expect(dialog.locator('.admin-markdown-preview strong')).toHaveText('fastest');
    await dialog.getByRole('button', { name: 'Send to 2 users' }).click();
    await expect(dialog.getByText('Mailing queued for 2 recipients.')).toBeVisible();

    // The worker sends within about 5 s; the dialog follows it to the end.
    const progress = dialog.getByRole('progressbar', { name: `Progress of the mailing ${title}` });
    await expect(progress).toHaveAttribute('aria-valuetext', '2 sent, 0 pending, 0 failed of 2', { timeout: 45_000 });
    await expect(dialog.getByText('Complete')).toBeVisible();
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await expect(dialog).toBeHidden();
    const listed = page.getByRole('region', { name: 'Mailings' }).getByRole('listitem').filter({ hasText: title });
    await expect(listed).toContainText('2 sent, 0 pending, 0 failed of 2');

    const outbox = path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');
    const sent = readOutbox(outbox).filter((mail) => mail.subject === title);
    expect(sent.map((mail) => mail.to).sort()).toEqual(accounts.map((account) => expect.stringContaining(account.email)));
    expect(sent[0]?.html).toContain('<strong>fastest</strong>');
    await context.close();
  });

  test("when the admin's session ends while /admin is open, the console gives way to a login button", async ({ browser }) => {
    const { context, page } = await openAdmin(browser);
    // Logged out elsewhere (another tab): the page learns it from its next call's 401.
    const logout = await context.request.post('/api/auth/logout', { headers: await xsrfHeaders(context.request) });
    expect(logout.status(), await logout.text()).toBeLessThan(300);
    await page.getByRole('button', { name: /^Reload/ }).click();
    await expect(page.getByText('Your session has ended. Log in as an administrator to use this screen.')).toBeVisible();
    await expect(page.getByRole('main').getByRole('button', { name: 'Login' })).toBeVisible();
    await expect(usersTable(page)).toHaveCount(0);
    await context.close();
  });

  test('Create XML Map regenerates the sitemap through a publish and shows its entries on the page', async ({ browser }) => {
    test.setTimeout(150_000);
    const { context, page } = await openAdmin(browser);
    const publishing = page.getByRole('region', { name: 'Site publishing' });
    await expect(publishing).toContainText('Last publish');

    await page.getByRole('button', { name: 'Create XML Map' }).click();
    const panel = page.getByRole('region', { name: 'Sitemap', exact: true });
    await expect(panel.getByRole('heading', { name: 'Sitemap' })).toBeFocused();
    await expect(panel.getByText('The sitemap has been regenerated.')).toBeVisible({ timeout: 120_000 });
    const entries = panel.getByRole('table');
    await expect(entries.getByRole('columnheader', { name: 'Priority' })).toBeVisible();
    await expect(entries.getByRole('row').filter({ hasText: '/news' }).first()).toBeVisible();
    await expect(entries.getByRole('cell', { name: '0.8', exact: true }).first()).toBeVisible();
    await expect(publishing).toContainText('Idle');
    await context.close();
  });
});
