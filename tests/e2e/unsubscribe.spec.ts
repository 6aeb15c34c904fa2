// The unsubscribe link of a mailing (issue 17, item 9; docs/product/admin.md#mailings): opening it shows a
// confirmation and changes nothing; the button unsubscribes. Opened as a reader would from a mail client:
// a fresh browser with no cookies, at phone width and at desktop width.
import { expect, test, type Browser } from '@playwright/test';
import { logInThroughApi, PASSWORD, pathOf, registerAccount, uniqueEmail, waitForMailLink, xsrfHeaders } from './accounts-support.ts';
import { E2E_ADMIN } from './env.ts';

/** Registers a reader and has the admin mail them through the API; returns the reader's address and id. */
async function mailedReader(browser: Browser): Promise<{ email: string; id: number }> {
  const email = uniqueEmail('unsubscribe');
  const reader = await browser.newContext();
  await registerAccount(reader.request, { name: 'Una Reader', email, password: PASSWORD });
  await logInThroughApi(reader.request, email, PASSWORD);
  const { user } = (await (await reader.request.get('/api/user', { headers: { 'X-Requested-With': 'XMLHttpRequest' } })).json()) as { user: { id: number } };
  await reader.close();

  const admin = await browser.newContext();
  await logInThroughApi(admin.request, E2E_ADMIN.email, E2E_ADMIN.password);
  const queued = await admin.request.post('/api/admin/sendmailing', {
    data: { users: [user.id], title: 'Autumn news', body: '# Hello!\n\nRead **this**.' },
    headers: await xsrfHeaders(admin.request),
  });
  expect(queued.status(), await queued.text()).toBe(202);
  await admin.close();
  return { email, id: user.id };
}

async function isUnsubscribed(browser: Browser, id: number): Promise<boolean> {
  const admin = await browser.newContext();
  await logInThroughApi(admin.request, E2E_ADMIN.email, E2E_ADMIN.password);
  const answer = (await (await admin.request.get('/api/license/getAll', { headers: { 'X-Requested-With': 'XMLHttpRequest' } })).json()) as {
    users: Array<{ id: number; unsubscribed_at: string | null }>;
  };
  await admin.close();
  return answer.users.find((user) => user.id === id)?.unsubscribed_at != null;
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`a reader opens the unsubscribe link of a mailing, confirms, and is unsubscribed (${viewport.width} px)`, async ({ browser }) => {
    test.setTimeout(60_000);
    const { email, id } = await mailedReader(browser);
    // The primary's mailing worker sends within its interval (5 s).
    const link = await waitForMailLink(email, '/api/mailing/unsubscribe');

    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(pathOf(link));
    await expect(page.getByRole('heading', { level: 1, name: 'Unsubscribe from mailings' })).toBeVisible();
    await expect(page.getByText('Do you want to stop receiving our mailings?')).toBeVisible();
    // Opening the link (as a link scanner would) changed nothing.
    expect(await isUnsubscribed(browser, id)).toBe(false);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

    if (viewport.width === 390) await page.screenshot({ path: test.info().outputPath('confirm-390.png') });
    const button = page.getByRole('button', { name: 'Unsubscribe' });
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Unsubscribed' })).toBeVisible();
    await expect(page.getByText('You have been unsubscribed. You will not receive our mailings any more.')).toBeVisible();
    if (viewport.width === 390) await page.screenshot({ path: test.info().outputPath('unsubscribed-390.png') });
    expect(await isUnsubscribed(browser, id)).toBe(true);
    await context.close();
  });
}
