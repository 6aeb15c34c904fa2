// The rough edges a walkthrough found (issue 28, section 2), each with a test that failed before its fix, at
// 1280 and 390 px: the nav bar with the inbox badge, the admin's license table, the dialogs' wording and
// buttons, the dashboard's notices, the login's second step, the publish toast. Screenshots of each screen go
// to test-results/ beside the test's output.
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { clientHeaders, logInContext } from './content-admin-support.ts';
import { PASSWORD, registerAccount, uniqueEmail } from './accounts-support.ts';
import { Secret, TOTP } from 'otpauth';
import { E2E_ADMIN } from './env.ts';

test.describe.configure({ timeout: 180_000 });

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const VIEWPORTS = [
  { name: 'desktop', viewport: DESKTOP },
  { name: 'phone', viewport: PHONE },
] as const;

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

async function signedIn(browser: Browser, account: { email: string; password: string }, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  await logInContext(context, account);
  return { context, page: await context.newPage() };
}

async function openAdmin(page: Page): Promise<void> {
  await page.goto('/admin');
  await expect(page.getByText(/^Showing 1–/)).toBeVisible();
}

/** A visitor's contact message: the admins' nav bar then shows the unread badge. */
async function sendContactMessage(browser: Browser, tag: string): Promise<void> {
  const visitor = await browser.newContext();
  const contact = await visitor.newPage();
  await contact.goto('/contact');
  await expect(contact.getByRole('button', { name: 'Send Email' })).toBeEnabled();
  await contact.getByLabel('Name').fill(`Nora ${tag}`);
  await contact.getByLabel('Email').fill(uniqueEmail('walkthrough'));
  await contact.getByLabel('Message').fill(`Is there a site license? (${tag})`);
  await contact.getByRole('button', { name: 'Send Email' }).click();
  await expect(contact.getByText('Message sent.')).toBeVisible();
  await visitor.close();
}

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  expect(found, 'the element has a box').toBeTruthy();
  return found as Box;
}

/** The boxes of the nav links' texts (not their padded links), left to right. */
async function linkTextBoxes(page: Page): Promise<Box[]> {
  return page.locator('.site-links a').evaluateAll((links) =>
    links.map((link) => {
      const range = document.createRange();
      range.selectNodeContents(link.firstChild ?? link);
      const rect = range.getBoundingClientRect();
      return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
    }),
  );
}

test('2.1: at 1280 px the admin nav bar with the inbox badge stays one 56 px line', async ({ browser }) => {
  await sendContactMessage(browser, Date.now().toString(36));
  const { context, page } = await signedIn(browser, E2E_ADMIN);
  try {
    for (const path of ['/', '/contact', '/admin']) {
      await page.goto(path);
      await expect(page.locator('[data-inbox-badge]')).toBeVisible();
      expect((await box(page.locator('.site-header'))).height).toBeLessThanOrEqual(57);
      const links = await page.locator('.site-links a').all();
      const tops = await Promise.all(links.map(async (link) => (await box(link)).y));
      expect(new Set(tops.map(Math.round)).size, `one row of links on ${path}`).toBe(1);
      // Nothing of the bar leaves the window.
      const badge = await box(page.locator('[data-inbox-badge]'));
      expect(badge.x + badge.width).toBeLessThanOrEqual(DESKTOP.width);
      await shoot(page, `2.1-nav${path.replace(/\//g, '-')}`);
    }
  } finally {
    await context.close();
  }
});

test('2.16: the nav links are evenly spaced and the current page highlight keeps clear of the next link', async ({ browser }) => {
  const { context, page } = await signedIn(browser, E2E_ADMIN);
  try {
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/documentation');
      const texts = await linkTextBoxes(page);
      const gaps = texts.slice(1).map((text, index) => text.x - (texts[index]!.x + texts[index]!.width));
      expect(Math.max(...gaps) - Math.min(...gaps), `gaps ${gaps.join(', ')} at ${width} px`).toBeLessThanOrEqual(2);
      const current = await box(page.locator('.site-links a[aria-current="page"]'));
      const next = await box(page.locator('.site-links li:has(a[aria-current="page"]) + li a'));
      expect(next.x - (current.x + current.width), `space after the highlight at ${width} px`).toBeGreaterThanOrEqual(4);
      await shoot(page, `2.16-nav-${width}`);
    }
  } finally {
    await context.close();
  }
});

test('2.22: the admin tool is called Manage Banned Domains, like its dialog and the documentation', async ({ browser }) => {
  const { context, page } = await signedIn(browser, E2E_ADMIN);
  try {
    await openAdmin(page);
    await page.getByRole('button', { name: 'Manage Banned Domains', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Manage Banned Domains' })).toBeVisible();
    await shoot(page, '2.22-banned-domains');
  } finally {
    await context.close();
  }
});

test('2.19: after Licensing Settings are saved the dialog offers Close, not a Cancel that cancels nothing', async ({ browser }) => {
  const { context, page } = await signedIn(browser, E2E_ADMIN);
  try {
    await openAdmin(page);
    await page.getByRole('button', { name: 'Licensing Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Licensing Settings' });
    await expect(settings.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await settings.getByRole('button', { name: 'Save' }).click();
    await expect(settings.getByText('Licensing settings saved.')).toBeVisible();
    await expect(settings.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
    await shoot(page, '2.19-licensing-saved');
    await settings.locator('.form__actions').getByRole('button', { name: 'Close', exact: true }).click();
    await expect(settings).toBeHidden();
  } finally {
    await context.close();
  }
});

test('2.2: in a user’s details at 1280 px the license table shows Status whole and Machines without scrolling', async ({ browser }) => {
  const { context, page } = await signedIn(browser, E2E_ADMIN);
  const headers = await clientHeaders(context.request);
  const me = (await (await context.request.get('/api/user', { headers })).json()) as { user: { id: number } };
  const all = (await (await context.request.get('/api/license/getAll', { headers })).json()) as { license_types: { id: number; name: string }[] };
  const trial = all.license_types.find((type) => type.name === 'trial');
  const created = await context.request.post('/api/license/store', { data: { user_id: me.user.id, license_type_id: trial!.id, expire: 30 }, headers });
  expect(created.status(), await created.text()).toBeLessThan(300);
  const licenseId = ((await created.json()) as { license: { id: number } }).license.id;
  try {
    for (const { name, viewport } of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await openAdmin(page);
      await page.getByLabel('Filter users').fill(E2E_ADMIN.email);
      const row = page.getByRole('row').filter({ hasText: E2E_ADMIN.email }).first();
      await row.getByRole('button', { name: /^Details/ }).click();
      const licenses = page.getByRole('region', { name: 'Licenses table' });
      await licenses.scrollIntoViewIfNeeded();
      const table = licenses.locator('table');
      const licenseRow = table.locator('tbody tr').filter({ hasText: /expires in 30 days/ });
      await expect(licenseRow).toHaveCount(1);
      await shoot(page, `2.2-license-table-${name}`);
      if (name !== 'desktop') continue;
      const scroller = await box(licenses);
      const status = await box(licenseRow.locator('td').nth(5));
      const machines = await box(licenseRow.locator('td').nth(6));
      const actions = await box(licenseRow.locator('.admin-table__action'));
      expect(status.x + status.width, 'Status ends before the pinned actions').toBeLessThanOrEqual(actions.x + 1);
      expect(machines.x + machines.width, 'Machines ends before the pinned actions').toBeLessThanOrEqual(actions.x + 1);
      expect(machines.x + machines.width).toBeLessThanOrEqual(scroller.x + scroller.width + 1);
      // Nothing to scroll sideways, and each header fits its cell.
      expect(await licenses.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true);
      for (const header of await table.locator('thead th').all()) {
        expect(await header.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true);
      }
      // The status is read in phrases, not a word a line ("Tri / exp / in / day").
      const phrase = licenseRow.locator('.license-status');
      const line = await phrase.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight) || 20);
      expect((await box(phrase)).height).toBeLessThan(line * 2);
    }
  } finally {
    const removed = await context.request.delete(`/api/license/delete/${licenseId}`, { headers: await clientHeaders(context.request) });
    expect(removed.status(), await removed.text()).toBeLessThan(300);
    await context.close();
  }
});

/** A new user, signed in, on a page of their own context. */
async function newUser(browser: Browser, label: string, viewport: { width: number; height: number }) {
  const account = { name: `Walker ${label}`, email: uniqueEmail(label), password: PASSWORD };
  const context = await browser.newContext({ viewport });
  await registerAccount(context.request, account);
  await logInContext(context, account);
  const me = (await (await context.request.get('/api/user', { headers: await clientHeaders(context.request) })).json()) as { user: { id: number } };
  return { account, context, page: await context.newPage(), id: me.user.id };
}

/** The admin grants the user a 30-day trial; its key. */
async function grantTrial(browser: Browser, userId: number): Promise<string> {
  const admin = await browser.newContext();
  try {
    const headers = await logInContext(admin, E2E_ADMIN);
    const all = (await (await admin.request.get('/api/license/getAll', { headers })).json()) as { license_types: { id: number; name: string }[] };
    const trial = all.license_types.find((type) => type.name === 'trial');
    const created = await admin.request.post('/api/license/store', { data: { user_id: userId, license_type_id: trial!.id, expire: 30 }, headers });
    expect(created.status(), await created.text()).toBeLessThan(300);
    return ((await created.json()) as { license: { key: string } }).license.key;
  } finally {
    await admin.close();
  }
}

for (const { name, viewport } of VIEWPORTS) {
  test(`2.7: without a license the Licenses card says so in a sentence, with Request License beside it (${name})`, async ({ browser }) => {
    const user = await newUser(browser, `nolicense-${name}`, viewport);
    try {
      await user.page.goto('/dashboard');
      const licenses = user.page.getByRole('region', { name: 'Licenses' });
      await expect(licenses.getByText('You have no license yet. Request a free trial license to try the software.')).toBeVisible();
      await expect(licenses.getByRole('button', { name: 'Request License' })).toBeVisible();
      await expect(user.page.getByText(/No licenses, user request/)).toHaveCount(0);
      await expect(user.page.getByRole('button', { name: 'Request License' })).toHaveCount(1);
      await shoot(user.page, `2.7-no-license-${name}`);
    } finally {
      await user.context.close();
    }
  });

  test(`2.20 and 2.6: the card names the type "Trial", and one notice at a time: the deactivation's goes when a file is downloaded (${name})`, async ({
    browser,
  }) => {
    const user = await newUser(browser, `onenotice-${name}`, viewport);
    try {
      const key = await grantTrial(browser, user.id);
      const activated = await user.context.request.post('/api/licensing/v1/activate', {
        data: { key, fingerprint: `fp-lab-${name}-${Date.now()}`, name: 'Lab PC 1' },
      });
      expect(activated.status(), await activated.text()).toBe(201);
      await user.page.goto('/dashboard');
      const card = user.page.getByRole('article', { name: /^License: / });
      await expect(card.locator('.license-card__type')).toHaveText('Trial');
      await expect(card.getByText('Trial – expires in 30 days')).toBeVisible();

      await card.getByRole('button', { name: 'Deactivate Lab PC 1' }).click();
      await user.page.getByRole('dialog', { name: 'Deactivate Machine' }).getByRole('button', { name: 'Deactivate', exact: true }).click();
      await expect(card.getByText('Lab PC 1 deactivated.')).toBeVisible();

      await card.getByText('Download license file').click();
      await card.getByLabel('Machine fingerprint').fill(`fp-offline-${name}-${Date.now()}`);
      const [download] = await Promise.all([user.page.waitForEvent('download'), card.getByRole('button', { name: 'Download file' }).click()]);
      expect(download.suggestedFilename()).toMatch(/\.lic$/);
      await expect(card.getByText(/downloaded\. Copy it to the machine/)).toBeVisible();
      await expect(card.getByText('Lab PC 1 deactivated.')).toHaveCount(0);
      await expect(card.locator('.form-message__text')).toHaveCount(1);
      await shoot(user.page, `2.6-one-notice-${name}`);
    } finally {
      await user.context.close();
    }
  });
}

function authenticator(secret: string): TOTP {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
}

for (const { name, viewport } of VIEWPORTS) {
  test(`2.9, 2.14, 2.15, 2.21: recovery codes dialog, notices apart from buttons, the login's code step (${name})`, async ({ browser }) => {
    const user = await newUser(browser, `twofactor-${name}`, viewport);
    // A second session, for the session list's notice below (before two-factor asks for a code).
    const other = await browser.newContext();
    await logInContext(other, user.account);
    await other.close();
    try {
      await user.page.goto('/dashboard');
      const card = user.page.getByRole('region', { name: 'Two-factor sign-in' });
      await card.getByRole('button', { name: 'Enable two-factor sign-in' }).click();
      const setup = user.page.getByRole('dialog', { name: 'Turn on two-factor sign-in' });
      const secret = ((await setup.locator('code').textContent()) ?? '').replace(/\s/g, '');
      const enrolledAt = Date.now();
      await setup.getByLabel('Code from the app').fill(authenticator(secret).generate({ timestamp: enrolledAt }));
      await setup.getByRole('button', { name: 'Turn on' }).click();

      // 2.14: the title says where things stand; the card behind already says On.
      const done = user.page.getByRole('dialog', { name: 'Save your recovery codes' });
      await expect(done).toBeVisible();
      await expect(card.getByText('On', { exact: true })).toBeVisible();
      await expect(card.getByText('Off.')).toHaveCount(0);
      // Copy and Download are the same kind of button.
      const copy = done.getByRole('button', { name: 'Copy the recovery codes' });
      const save = done.getByRole('button', { name: 'Download (.txt)' });
      const look = (element: Element) => {
        const style = getComputedStyle(element);
        return [
          style.height,
          style.fontSize,
          style.fontWeight,
          style.borderTopWidth,
          style.borderTopColor,
          style.backgroundColor,
          style.color,
          style.paddingTop,
        ].join(' ');
      };
      expect(await copy.evaluate(look)).toBe(await save.evaluate(look));
      // Done sits apart from the codes' buttons, on its own line.
      const doneButton = done.getByRole('button', { name: 'Done' });
      const saveBox = await box(save);
      const doneBox = await box(doneButton);
      expect(doneBox.y - (saveBox.y + saveBox.height)).toBeGreaterThanOrEqual(12);
      expect(doneBox.height).toBeLessThanOrEqual(saveBox.height + 1);
      await shoot(user.page, `2.14-recovery-codes-${name}`);

      // 2.9: the file is named after the product and the account, and says so inside.
      const [download] = await Promise.all([user.page.waitForEvent('download'), save.click()]);
      expect(download.suggestedFilename()).toBe(`dimensional-control-recovery-codes-${user.account.email}.txt`);
      const text = await (await import('node:fs/promises')).readFile((await download.path())!, 'utf8');
      expect(text.split('\n')[0]).toBe(`Dimensional Control recovery codes for ${user.account.email}`);
      expect(text).not.toContain('127.0.0.1');
      expect(text).not.toContain('localhost');

      await doneButton.click();
      await expect(done).toBeHidden();
      // 2.15: the success notice keeps its distance from the buttons above it.
      const notice = card.getByText('Two-factor sign-in is on.');
      await expect(notice).toBeVisible();
      const buttons = await box(card.locator('.dashboard__actions'));
      expect((await box(notice)).y - (buttons.y + buttons.height)).toBeGreaterThanOrEqual(8);
      await shoot(user.page, `2.15-two-factor-notice-${name}`);

      // 2.15 in the session list: a second session signed out.
      const sessions = user.page.getByRole('region', { name: 'Where you’re signed in' });
      const otherItem = sessions.getByRole('listitem').filter({ hasNotText: 'This device' }).first();
      await otherItem.getByRole('button', { name: /^Sign out/ }).click();
      await user.page.getByRole('dialog', { name: 'Sign out' }).getByRole('button', { name: 'Sign out' }).click();
      const signedOut = sessions.getByText(/has been signed out\./);
      await expect(signedOut).toBeVisible();
      await expect(sessions.getByRole('listitem')).toHaveCount(1);
      await signedOut.scrollIntoViewIfNeeded();
      const above = await box(sessions.locator('.form-message').locator('xpath=preceding-sibling::*[1]'));
      expect((await box(signedOut)).y - (above.y + above.height)).toBeGreaterThanOrEqual(8);
      await signedOut.scrollIntoViewIfNeeded();
      await shoot(user.page, `2.15-sessions-notice-${name}`);

      // 2.21: the code step has its own title and a way back to the password.
      const visitor = await browser.newContext({ viewport });
      const page = await visitor.newPage();
      await page.goto('/');
      await page.locator('[data-nav][data-enhanced]').waitFor({ state: 'attached' });
      const toggle = page.locator('[data-nav-toggle]');
      if (await toggle.isVisible()) await toggle.click();
      await page.getByRole('button', { name: 'Login' }).click();
      const login = page.getByRole('dialog', { name: 'Login Form' });
      await login.getByLabel('Email').fill(user.account.email);
      await login.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await login.getByRole('button', { name: 'Login', exact: true }).click();
      const step = page.getByRole('dialog', { name: 'Two-factor sign-in' });
      await expect(step.getByLabel('Authentication code')).toBeFocused();
      await shoot(page, `2.21-code-step-${name}`);
      await step.getByRole('button', { name: 'Back to the password' }).click();
      await expect(page.getByRole('dialog', { name: 'Login Form' }).getByLabel('Email')).toHaveValue(user.account.email);
      await visitor.close();
    } finally {
      await user.context.close();
    }
  });
}
