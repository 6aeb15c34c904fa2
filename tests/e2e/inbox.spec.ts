// The admin inbox in the browser (issue 14, part 1; docs/product/admin.md#inbox), at desktop width and at 390 px: a visitor's
// contact message shows as the admin's unread badge, the admin opens it, replies (the reply is in the outbox), marks it handled
// and finds it again by search; a user's license request is declined with a reason that reaches the user by mail, and the
// dashboard offers Request License again; one granted as a trial reaches the dashboard; and 'Request Failed!' names the support address.
import path from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { readOutbox, type ParsedMail } from '../helpers/mail.ts';
import { logInThroughApi, PASSWORD, registerAccount, uniqueEmail } from './accounts-support.ts';
import { E2E_ADMIN } from './env.ts';

const VIEWPORTS = [
  { label: 'desktop', viewport: { width: 1280, height: 900 } },
  { label: '390 px', viewport: { width: 390, height: 844 } },
] as const;

function outbox(): ParsedMail[] {
  return readOutbox(path.join(process.env.E2E_DATA_DIR ?? '', 'outbox'));
}

async function mailTo(address: string, subject: string): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(() => (found = outbox().find((mail) => mail.to.toLowerCase().includes(address.toLowerCase()) && mail.subject.includes(subject))), {
      message: `a mail "${subject}" to ${address}`,
    })
    .toBeTruthy();
  return found as ParsedMail;
}

async function signedIn(
  browser: Browser,
  viewport: { width: number; height: number },
  email: string,
  password: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  await logInThroughApi(context.request, email, password);
  return { context, page: await context.newPage() };
}

function inboxItem(page: Page, text: string): Locator {
  return page.locator('#inbox li[data-inbox-item]').filter({ hasText: text });
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

async function searchInbox(page: Page, text: string, status: 'Open' | 'Handled' | 'All'): Promise<void> {
  const inbox = page.locator('#inbox');
  await inbox.getByLabel('Show').selectOption({ label: status });
  await inbox.getByLabel('Search').fill(text);
  await inbox.getByRole('button', { name: 'Search', exact: true }).click();
}

for (const { label, viewport } of VIEWPORTS) {
  test.describe(`admin inbox at ${label}`, () => {
    test('a contact message: unread badge, open, reply by mail, mark handled, find it by search', async ({ browser }) => {
      const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
      const visitorEmail = uniqueEmail('inbox-visitor');
      const visitor = await browser.newContext({ viewport });
      const contact = await visitor.newPage();
      await contact.goto('/contact');
      // Enabled once the form has hydrated: typing before that would be lost.
      await expect(contact.getByRole('button', { name: 'Send Email' })).toBeEnabled();
      await contact.getByLabel('Name').fill(`Vera ${tag}`);
      await contact.getByLabel('Email').fill(visitorEmail);
      await contact.getByLabel('Message').fill(`Do you offer on-site training? (${tag})`);
      await contact.getByRole('button', { name: 'Send Email' }).click();
      await expect(contact.getByText('Message sent.')).toBeVisible();
      await visitor.close();
      // Every admin is told, the seeded one included, with Reply-To the visitor.
      expect((await mailTo(E2E_ADMIN.email, `Contact message from Vera ${tag}`)).replyTo).toContain(visitorEmail);

      const { context, page } = await signedIn(browser, viewport, E2E_ADMIN.email, E2E_ADMIN.password);
      const badgeScript = page.waitForRequest((request) => /\/_astro\/inbox-badge\./.test(request.url()));
      await page.goto('/');
      // The badge's code is its own chunk, fetched only for admins (tests/e2e/light-pages.spec.ts: readers never get it).
      await badgeScript;
      // At phone width the account area, badge included, is inside the menu.
      const menu = page.locator('[data-nav-toggle]');
      if (await menu.isVisible()) await menu.click();
      const badge = page.locator('[data-inbox-badge]');
      await expect(badge).toBeVisible();
      const unreadBefore = Number(/Inbox: (\d+) unread/.exec((await badge.getAttribute('aria-label')) ?? '')?.[1]);
      expect(unreadBefore).toBeGreaterThan(0);
      await badge.click();
      await expect(page).toHaveURL(/\/admin#inbox$/);
      await expect(page.locator('#inbox').getByRole('heading', { name: `Inbox ${unreadBefore} unread` })).toBeVisible();

      const item = inboxItem(page, tag);
      await expect(item.getByText('New')).toBeVisible();
      await item.getByRole('button', { name: new RegExp(`Vera ${tag}`) }).click();
      await expect(item.getByText(`Do you offer on-site training? (${tag})`).last()).toBeVisible();
      // Opening it read it: one fewer unread, in the nav bar and on the admin screen.
      const unreadAfter = unreadBefore - 1;
      if (unreadAfter > 0) {
        await expect(badge).toHaveAttribute('aria-label', `Inbox: ${unreadAfter} unread`);
        await expect(page.locator('#inbox').getByRole('heading', { name: `Inbox ${unreadAfter} unread` })).toBeVisible();
      } else {
        await expect(badge).toHaveCount(0);
        await expect(page.locator('#inbox').getByRole('heading', { name: 'Inbox', exact: true })).toBeVisible();
      }
      await expect(item.getByText('New')).toBeHidden();
      await expectNoSidewaysScroll(page);

      await item.getByRole('button', { name: 'Reply' }).click();
      const dialog = page.getByRole('dialog', { name: 'Reply' });
      await dialog.getByLabel('Subject').fill(`Re: training ${tag}`);
      await dialog.getByLabel('Message').fill('Yes, we do. Which week suits you?');
      await dialog.getByRole('button', { name: 'Send Reply' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.locator('#inbox').getByText('Reply sent.')).toBeVisible();
      await expect(item.getByText(`Re: training ${tag}`)).toBeVisible();
      await item.scrollIntoViewIfNeeded();
      await page.screenshot({ path: test.info().outputPath('inbox-item.png') });
      const reply = await mailTo(visitorEmail, `Re: training ${tag}`);
      expect(reply.text).toContain('Which week suits you?');
      expect(reply.replyTo).toContain(E2E_ADMIN.email);

      await item.getByRole('button', { name: 'Mark Handled' }).click();
      await expect(page.locator('#inbox').getByText(`Marked as handled. (Vera ${tag})`)).toBeVisible();
      await expect(item.getByRole('button', { name: 'Reopen' })).toBeVisible();

      // A handled item matches: the list says so and offers Show: All (issue 28, item 13).
      await searchInbox(page, tag, 'Open');
      await expect(page.locator('#inbox').getByText('No open item matches the search, but 1 handled item does.')).toBeVisible();
      await page.locator('#inbox').getByRole('button', { name: 'Show: All' }).click();
      await expect(page.locator('#inbox').getByLabel('Show')).toHaveValue('all');
      await expect(inboxItem(page, tag)).toHaveCount(1);
      await searchInbox(page, visitorEmail, 'Handled');
      await expect(inboxItem(page, tag)).toHaveCount(1);
      await expect(inboxItem(page, tag).getByText('Handled', { exact: true })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await context.close();
    });

    test('a license request declined with a reason: mailed to the user, who may ask again', async ({ browser }) => {
      const email = uniqueEmail('inbox-request');
      const name = `Ulla ${Date.now().toString(36)}`;
      const setup = await browser.newContext();
      await registerAccount(setup.request, { name, email, password: PASSWORD });
      await setup.close();

      const user = await signedIn(browser, viewport, email, PASSWORD);
      await user.page.goto('/dashboard');
      await user.page.getByRole('button', { name: 'Request License' }).click();
      await expect(user.page.getByText('Request Sent')).toBeVisible();
      await mailTo(E2E_ADMIN.email, `License request from ${name}`);

      const { context, page } = await signedIn(browser, viewport, E2E_ADMIN.email, E2E_ADMIN.password);
      await page.goto('/admin');
      await searchInbox(page, email, 'Open');
      const item = inboxItem(page, email);
      await item.getByRole('button', { name: new RegExp(name) }).click();
      await item.getByRole('button', { name: 'Decline' }).click();
      const dialog = page.getByRole('dialog', { name: 'Decline License Request' });
      // An empty reason is refused under the field.
      await dialog.getByRole('button', { name: 'Decline Request' }).click();
      await expect(dialog.getByText('The reason field is required.')).toBeVisible();
      await dialog.getByLabel('Reason').fill('Trials are for company addresses only.');
      await dialog.getByRole('button', { name: 'Decline Request' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.locator('#inbox').getByText('License request declined; the user was e-mailed.')).toBeVisible();
      await expect(item.getByText(/Declined by .* Reason: Trials are for company addresses only\./)).toBeVisible();
      await expectNoSidewaysScroll(page);

      const mail = await mailTo(email, 'Your license request was declined');
      expect(mail.text).toContain('Trials are for company addresses only.');

      await user.page.reload();
      await expect(user.page.getByRole('button', { name: 'Request License' })).toBeVisible();
      await expect(user.page.getByText('License requested – awaiting approval')).toBeHidden();
      await context.close();
      await user.context.close();
    });

    test('a license request granted as a trial: the key mailed, the license on the dashboard', async ({ browser }) => {
      const email = uniqueEmail('inbox-grant');
      const name = `Gus ${Date.now().toString(36)}`;
      const setup = await browser.newContext();
      await registerAccount(setup.request, { name, email, password: PASSWORD });
      await setup.close();
      const user = await signedIn(browser, viewport, email, PASSWORD);
      await user.page.goto('/dashboard');
      await user.page.getByRole('button', { name: 'Request License' }).click();
      await expect(user.page.getByText('Request Sent')).toBeVisible();

      const { context, page } = await signedIn(browser, viewport, E2E_ADMIN.email, E2E_ADMIN.password);
      await page.goto('/admin');
      await searchInbox(page, email, 'Open');
      const item = inboxItem(page, email);
      await item.getByRole('button', { name: new RegExp(name) }).click();
      await item.getByRole('button', { name: 'Grant Trial' }).click();
      const dialog = page.getByRole('dialog', { name: 'Grant Trial License' });
      await expect(dialog.getByLabel('Days')).toHaveValue('30');
      await dialog.getByLabel('Days').fill('14');
      await dialog.getByRole('button', { name: 'Grant Trial' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.locator('#inbox').getByText('License granted; the user was e-mailed.')).toBeVisible();
      await expect(item.getByText(/Trial granted by /)).toBeVisible();
      await expect(item.getByRole('button', { name: 'Grant Trial' })).toHaveCount(0);

      const mail = await mailTo(email, 'Your license is active');
      expect(mail.text).toMatch(/DCTL-/);
      await user.page.reload();
      await expect(user.page.getByText('License requested – awaiting approval')).toBeHidden();
      await expect(user.page.getByText(/Trial – expires in 1[34] days/).first()).toBeVisible();
      await context.close();
      await user.context.close();
    });

    test("'Request Failed!' names the support address (the first admin's, SUPPORT_EMAIL being unset)", async ({ browser }) => {
      const email = uniqueEmail('inbox-failed');
      const setup = await browser.newContext();
      await registerAccount(setup.request, { name: 'Fay', email, password: PASSWORD });
      await setup.close();
      const user = await signedIn(browser, viewport, email, PASSWORD);
      // The server failing the request: the alert must still say whom to write to.
      await user.page.route('**/api/user/request-license/**', (route) =>
        route.fulfill({ status: 500, json: { message: 'Server error, please try again later!' } }),
      );
      await user.page.goto('/dashboard');
      await user.page.getByRole('button', { name: 'Request License' }).click();
      const alert = user.page.getByRole('alert').filter({ hasText: 'Request Failed!' });
      await expect(alert).toBeVisible();
      await expect(alert.getByRole('link', { name: E2E_ADMIN.email })).toHaveAttribute('href', `mailto:${E2E_ADMIN.email}`);
      await expectNoSidewaysScroll(user.page);
      await user.context.close();
    });
  });
}
