// Issue 28 in the browser, at 1280 and 390 px: a customer's support history on the dashboard (a message sent before signing
// up, the admin's reply, the customer's answer landing unread in the admin's inbox item); the legal pages linked from every
// footer and edited in place; the contact details edited in place and published; and the inbox's defects: a reopened grant
// stays granted (item 3), the reply's subject (item 4), the toolbar on one row (item 18) and "assign to me" (item 23).
import path from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { readOutbox } from '../helpers/mail.ts';
import { PASSWORD, uniqueEmail } from './accounts-support.ts';
import { clientHeaders, createVerifiedReader, logInContext, waitForLive } from './content-admin-support.ts';
import { E2E_ADMIN } from './env.ts';

const VIEWPORTS = [
  { label: '1280 px', viewport: { width: 1280, height: 900 } },
  { label: '390 px', viewport: { width: 390, height: 844 } },
] as const;

const outboxDir = () => path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');

async function adminContext(
  browser: Browser,
  viewport: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page; headers: Record<string, string> }> {
  const context = await browser.newContext({ viewport });
  const headers = await logInContext(context, E2E_ADMIN);
  return { context, page: await context.newPage(), headers };
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

async function sendContactMessage(browser: Browser, fields: { name: string; email: string; message: string }): Promise<void> {
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  await page.goto('/contact');
  await expect(page.getByRole('button', { name: 'Send Email' })).toBeEnabled();
  await page.getByLabel('Name').fill(fields.name);
  await page.getByLabel('Email').fill(fields.email);
  await page.getByLabel('Message').fill(fields.message);
  await page.getByRole('button', { name: 'Send Email' }).click();
  await expect(page.getByText('Message sent.')).toBeVisible();
  await visitor.close();
}

async function findInInbox(page: Page, text: string, status: 'Open' | 'All' = 'Open') {
  const inbox = page.locator('#inbox');
  await inbox.getByLabel('Show').selectOption({ label: status });
  await inbox.getByLabel('Search').fill(text);
  await inbox.getByRole('button', { name: 'Search', exact: true }).click();
  const item = inbox.locator('li[data-inbox-item]').filter({ hasText: text });
  await expect(item).toHaveCount(1);
  return item;
}

for (const { label, viewport } of VIEWPORTS) {
  test.describe(`issue 28 at ${label}`, () => {
    test('support history: a message from before signing up, the reply, and the answer back in the same inbox item', async ({ browser }) => {
      const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
      const email = uniqueEmail('support');
      const question = `Can I move my license to a new laptop? (${tag})`;
      await sendContactMessage(browser, { name: `Sam ${tag}`, email, message: question });

      const admin = await adminContext(browser, viewport);
      await admin.page.goto('/admin');
      const item = await findInInbox(admin.page, tag);
      const itemKey = await item.getAttribute('data-inbox-item');
      await item.getByRole('button', { name: new RegExp(`Sam ${tag}`) }).click();
      await item.getByRole('button', { name: 'Reply', exact: true }).click();
      const dialog = admin.page.getByRole('dialog', { name: 'Reply' });
      // The subject offered is "Re: " and the visitor's first words (item 4).
      await expect(dialog.getByLabel('Subject')).toHaveValue('Re: Can I move my license to a new…');
      await dialog.getByLabel('Message').fill('Hi Sam, yes: deactivate it on the old one first.');
      await dialog.getByRole('button', { name: 'Send Reply' }).click();
      await expect(dialog).toBeHidden();
      // One greeting only, the admin's own, and the subject as typed (item 4).
      await expect
        .poll(() => readOutbox(outboxDir()).find((mail) => mail.to.includes(email) && mail.subject.startsWith('Re: Can I move'))?.text ?? '')
        .toContain('Hi Sam, yes');
      const replyMail = readOutbox(outboxDir()).find((mail) => mail.to.includes(email) && mail.subject.startsWith('Re: Can I move'));
      expect(replyMail?.subject).toBe('Re: Can I move my license to a new…');
      expect(replyMail?.text).not.toMatch(/^Hello /m);
      await item.getByRole('button', { name: 'Mark Handled', exact: true }).click();
      await expect(item.getByRole('button', { name: 'Reopen', exact: true })).toBeVisible();

      // Sam signs up later with the same address, verified.
      const user = await browser.newContext({ viewport });
      await createVerifiedReader(user, admin.context.request, { name: `Sam ${tag}`, email, password: PASSWORD });
      const page = await user.newPage();
      await page.goto('/dashboard');
      const card = page.locator('section.support');
      await expect(card.getByRole('heading', { name: 'Support' })).toBeVisible();
      const entry = card.locator('li[data-support-item]').filter({ hasText: question });
      await expect(entry.getByText('Closed')).toBeVisible();
      await expect(entry.getByText('Hi Sam, yes: deactivate it on the old one first.')).toBeVisible();
      await entry.scrollIntoViewIfNeeded();
      await page.screenshot({ path: test.info().outputPath(`support-card-${viewport.width}.png`), fullPage: false });

      await entry.getByRole('button', { name: /^Answer/ }).click();
      const answerDialog = page.getByRole('dialog', { name: 'Answer' });
      await answerDialog.getByRole('button', { name: 'Send Answer' }).click();
      await expect(answerDialog.getByText('The message field is required.')).toBeVisible();
      await answerDialog.getByLabel('Your answer').fill(`Done, thanks! (${tag})`);
      await answerDialog.getByRole('button', { name: 'Send Answer' }).click();
      await expect(answerDialog).toBeHidden();
      await expect(card.getByText('Your answer was sent.')).toBeVisible();
      await expect(entry.getByText('Waiting for our answer')).toBeVisible();
      await expect(entry.getByText(`Done, thanks! (${tag})`)).toBeVisible();
      await expectNoSidewaysScroll(page);

      // The admins are told, and the same item is open and unread again with the answer in it.
      await expect.poll(() => readOutbox(outboxDir()).some((mail) => mail.subject.includes(`Answer from Sam ${tag}`))).toBe(true);
      await admin.page.reload();
      const again = await findInInbox(admin.page, tag);
      expect(await again.getAttribute('data-inbox-item')).toBe(itemKey);
      await expect(again.getByText('New', { exact: true })).toBeVisible();
      await again.getByRole('button', { name: new RegExp(`Sam ${tag}`) }).click();
      await expect(again.getByText(`Answer from Sam ${tag}`)).toBeVisible();
      await expect(again.getByText(`Done, thanks! (${tag})`)).toBeVisible();
      await again.scrollIntoViewIfNeeded();
      await admin.page.screenshot({ path: test.info().outputPath(`inbox-answer-${viewport.width}.png`) });
      await expectNoSidewaysScroll(admin.page);
      await user.close();
      await admin.context.close();
    });

    test('inbox: a reopened grant stays granted, assign to me, and the toolbar on one row', async ({ browser }) => {
      const email = uniqueEmail('grant-reopen');
      const name = `Greta ${Date.now().toString(36)}`;
      const admin = await adminContext(browser, viewport);
      const user = await browser.newContext({ viewport });
      await createVerifiedReader(user, admin.context.request, { name, email, password: PASSWORD });
      const me = (await (await user.request.get('/api/user')).json()) as { user: { id: number } };
      expect((await user.request.get(`/api/user/request-license/${me.user.id}`, { headers: await clientHeaders(user.request) })).status()).toBe(200);

      await admin.page.goto('/admin');
      // Item 18: at 1280 px the search input, its button and Show sit on one row.
      if (viewport.width === 1280) {
        const tools = admin.page.locator('#inbox form[role="search"]');
        const boxes = await Promise.all(
          [tools.getByLabel('Search'), tools.getByRole('button', { name: 'Search', exact: true }), tools.getByLabel('Show')].map((locator) =>
            locator.boundingBox(),
          ),
        );
        const middles = boxes.map((box) => (box ? box.y + box.height / 2 : -1));
        for (const middle of middles) expect(Math.abs(middle - (middles[0] ?? 0))).toBeLessThanOrEqual(4);
        await tools.screenshot({ path: test.info().outputPath('inbox-toolbar-1280.png') });
      }
      const item = await findInInbox(admin.page, email);
      await item.getByRole('button', { name: new RegExp(name) }).click();

      // Assign to me (item 23): the badge says so; another admin would read "Assigned to <name>".
      await item.getByRole('button', { name: 'Assign to me', exact: true }).click();
      await expect(item.getByText('Assigned to you')).toBeVisible();
      await expect(item.getByText('You are answering this.')).toBeVisible();

      await item.getByRole('button', { name: 'Grant Trial', exact: true }).click();
      const dialog = admin.page.getByRole('dialog', { name: 'Grant Trial License' });
      await dialog.getByRole('button', { name: 'Grant Trial', exact: true }).click();
      await expect(dialog).toBeHidden();
      await expect(item.getByText(/Trial granted by /)).toBeVisible();

      // Item 3: Reopen keeps the grant in sight and offers no second Grant or Decline.
      await item.getByRole('button', { name: 'Reopen', exact: true }).click();
      await expect(admin.page.locator('#inbox').getByText(/^Reopened\./)).toBeVisible();
      await expect(item.getByText('Trial granted, reopened')).toBeVisible();
      await expect(item.getByText(/Trial granted by /)).toBeVisible();
      await expect(item.getByRole('button', { name: 'Grant Trial', exact: true })).toHaveCount(0);
      await expect(item.getByRole('button', { name: 'Decline', exact: true })).toHaveCount(0);
      await item.getByRole('button', { name: 'Unassign', exact: true }).click();
      await expect(item.getByText('Assigned to you')).toHaveCount(0);
      await expectNoSidewaysScroll(admin.page);
      await user.close();
      await admin.context.close();
    });

    test('legal pages: linked from every footer, with the cookies named, and edited in place', async ({ browser }) => {
      const reader = await browser.newContext({ viewport });
      const page = await reader.newPage();
      for (const from of ['/', '/contact', '/downloads']) {
        await page.goto(from);
        const footer = page.locator('footer');
        for (const [link, href] of [
          ['Privacy Policy', '/privacy'],
          ['Terms of Use', '/terms'],
          ['Imprint', '/imprint'],
        ] as const)
          await expect(footer.getByRole('link', { name: link })).toHaveAttribute('href', href);
      }
      await page.locator('footer').getByRole('link', { name: 'Privacy Policy' }).click();
      await expect(page).toHaveURL(/\/privacy$/);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      for (const cookie of ['session', 'signed_in', 'XSRF-TOKEN', 'xsrf_visitor', 'two_factor'])
        await expect(page.locator('main').getByText(cookie, { exact: true }).first()).toBeVisible();
      await expect(
        page
          .locator('main')
          .getByText(/Download my data/)
          .first(),
      ).toBeVisible();
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: test.info().outputPath(`privacy-${viewport.width}.png`) });
      for (const pathName of ['/terms', '/imprint']) expect((await page.goto(pathName))?.status()).toBe(200);

      // The admin edits the imprint in place; readers get it with the publish.
      const marker = `ACME ${Date.now().toString(36)} Ltd.`;
      const admin = await adminContext(browser, viewport);
      await admin.page.goto('/imprint');
      await admin.page.getByRole('button', { name: 'Edit page' }).click();
      const form = admin.page.locator('[data-legal-form="imprint"]');
      await expect(form.getByLabel('Title')).toHaveValue(/.+/);
      await form.getByLabel('Title').fill('Imprint');
      await form.getByRole('textbox', { name: 'Body' }).fill(`**${marker}**\n\n1 Example Street, Example Town`);
      await form.getByRole('button', { name: 'Save page' }).click();
      await expect(admin.page.getByText('Page saved.')).toBeVisible();
      await expect(admin.page.locator('article[data-legal-page] strong').filter({ hasText: marker })).toBeVisible();
      await admin.page.screenshot({ path: test.info().outputPath(`imprint-admin-${viewport.width}.png`) });
      await waitForLive(admin.page);
      await page.goto('/imprint');
      await expect(page.locator('main strong').filter({ hasText: marker })).toBeVisible();
      await reader.close();
      await admin.context.close();
    });

    test('contact details: edited in place, empty ones hidden, on the static page after the publish', async ({ browser }) => {
      const phone = `+44 20 ${String(Date.now()).slice(-4)} 0000`;
      const admin = await adminContext(browser, viewport);
      await admin.page.goto('/contact');
      await admin.page.getByRole('button', { name: 'Edit contact details' }).click();
      const form = admin.page.locator('[data-contact-details-form]');
      await form.getByLabel('E-mail').fill('not an address');
      await form.getByRole('button', { name: 'Save details' }).click();
      await expect(form.locator('.field__error').getByText('The email field must be a valid email address.')).toBeVisible();
      await form.getByLabel('Address').fill('1 Example Street\nExample Town');
      await form.getByLabel('E-mail').fill('info@example.com');
      await form.getByLabel('Phone').fill(phone);
      await form.getByRole('button', { name: 'Save details' }).click();
      await expect(admin.page.getByText('Contact details saved.')).toBeVisible();
      await expect(admin.page.locator('[data-contact-details-live]').getByText(phone)).toBeVisible();
      await admin.page.screenshot({ path: test.info().outputPath(`contact-admin-${viewport.width}.png`), fullPage: true });
      await waitForLive(admin.page);

      const reader = await browser.newContext({ viewport });
      const page = await reader.newPage();
      await page.goto('/contact');
      const details = page.getByRole('region', { name: 'Contact details' });
      await expect(details.getByText('1 Example Street')).toBeVisible();
      await expect(details.getByRole('link', { name: 'info@example.com' })).toHaveAttribute('href', 'mailto:info@example.com');
      await expect(details.getByText(phone)).toBeVisible();
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: test.info().outputPath(`contact-${viewport.width}.png`), fullPage: true });

      // An empty field is hidden: no phone line once the phone is removed.
      const saved = await admin.context.request.put('/api/contact/details', {
        data: { address: '1 Example Street\nExample Town', email: 'info@example.com', phone: '' },
        headers: await clientHeaders(admin.context.request),
      });
      expect(saved.status()).toBe(200);
      await admin.page.reload();
      await expect(admin.page.locator('[data-contact-details-live]').getByText('Phone:')).toHaveCount(0);
      await reader.close();
      await admin.context.close();
    });
  });
}
