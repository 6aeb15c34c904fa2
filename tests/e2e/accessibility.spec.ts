// Every screen against the WCAG 2.2 A and AA rules and axe's best practices (axe-core, run inside the page),
// at 1280 and 390 px: the public pages (light and dark) and the sign-in dialogs, a customer's dashboard with a
// floating license in use and the mails that took, and the admin's screens with their tables, menus, dialogs
// and editors open; and, what axe cannot judge, a visible focus on every Tab stop of the reading pages, the
// dashboard and the admin console (docs/engineering.md#every-screen-passes-axe). Keyboard and
// screen-reader use of single widgets is tested where the widget is (accounts, admin-console, content-admin);
// this sweep catches what no one thought to test: an unnamed control, two landmarks of one name, a block
// that scrolls where a keyboard cannot, a name that hides the words on the button.
import { AxeBuilder } from '@axe-core/playwright';
import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { mailsTo, verifiedUser, xsrfHeaders } from './accounts-support.ts';
import { E2E_PORT } from './env.ts';
import { adminContext, createLicenseType, grantLicense, userIdOf } from './releases-support.ts';

const WCAG_RULE_SETS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const RULE_SETS = [...WCAG_RULE_SETS, 'best-practice'];
const PUBLIC_PAGES = [
  '/',
  '/news',
  '/documentation',
  '/tutorials',
  '/downloads',
  '/contact',
  '/search?q=inspector',
  '/privacy',
  '/terms',
  '/imprint',
  '/api/reference',
];

/** What axe finds wrong on the page as it is now, one line per rule with the elements it names. */
async function violationsOn(page: Page, ruleSets = RULE_SETS): Promise<string[]> {
  // From the top: the sticky header must not lie over what is checked (axe measures targets as drawn).
  await page.evaluate(() => window.scrollTo(0, 0));
  const { violations } = await new AxeBuilder({ page }).withTags(ruleSets).analyze();
  return violations.map(
    (violation) => `${violation.id} (${violation.impact ?? '?'}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}

async function expectAccessible(page: Page, what: string): Promise<void> {
  expect(await violationsOn(page), what).toEqual([]);
}

/**
 * WCAG 2.4.7, which axe cannot check: Tab through the page from its start until focus comes round (or
 * `maxStops`), and every focused element must be drawn with an outline or a ring, and be on screen to see.
 */
async function expectFocusAlwaysShown(page: Page, what: string, maxStops = 150): Promise<void> {
  const seen = new Set<string>();
  const unmarked: string[] = [];
  for (let stop = 0; stop < maxStops; stop++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement;
      if (!(element instanceof HTMLElement) || element === document.body) return null;
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      return {
        name: `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}" #${[...(element.parentElement?.children ?? [])].indexOf(element)} at ${Math.round(box.x)},${Math.round(box.y + window.scrollY)}`,
        marked: (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none',
        onScreen: box.width > 0 && box.height > 0,
      };
    });
    if (!focused) continue;
    if (seen.has(focused.name)) break;
    seen.add(focused.name);
    if (!focused.marked || !focused.onScreen) unmarked.push(focused.name);
  }
  expect(seen.size, `Tab stops on ${what}`).toBeGreaterThan(3);
  expect(unmarked, `Tab stops on ${what} without a visible focus`).toEqual([]);
}

/** Opens the navigation's dialog `name` (from the menu under 800 px, where the buttons live there). */
async function openFromNavigation(page: Page, name: string, narrow: boolean): Promise<void> {
  if (narrow) await page.getByRole('button', { name: /menu/i }).first().click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();
}

for (const width of [1280, 390]) {
  const narrow = width < 800;

  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the public pages and the sign-in dialogs break no rule', async ({ page }) => {
      for (const path of PUBLIC_PAGES) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(200);
        await page.waitForLoadState('networkidle');
        await expectAccessible(page, path);
      }
      await page.goto('/');
      for (const [button, dialog] of [
        ['Login', 'Login Form'],
        ['Register', 'Registration Form'],
      ] as const) {
        await openFromNavigation(page, button, narrow);
        await expect(page.getByRole('dialog', { name: dialog })).toBeVisible();
        await expectAccessible(page, `the ${dialog} dialog`);
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog', { name: dialog })).toBeHidden();
      }
    });

    test('every Tab stop of the reading pages shows where the focus is', async ({ page }) => {
      for (const path of ['/', '/news', '/downloads', '/contact']) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        await expectFocusAlwaysShown(page, path);
      }
    });

    test('the public pages in the dark colour scheme break no rule', async ({ page }) => {
      // The site follows the reader's scheme (prefers-color-scheme): its own colours, its own contrast.
      await page.emulateMedia({ colorScheme: 'dark' });
      for (const path of PUBLIC_PAGES) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        await expectAccessible(page, `${path} in the dark scheme`);
      }
    });

    test('a customer’s dashboard with a floating license in use breaks no rule', async ({ browser }) => {
      const tag = `${width}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
      const account = { name: `Ada Access ${tag}`, email: `a11y-${tag}@example.com` };
      const { context, page } = await verifiedUser(browser, account, width);
      const admin = await adminContext(browser);
      const typeId = await createLicenseType(admin.request, `Lab ${tag}`, ['LAB_SEATS'], { floating: true });
      await grantLicense(admin.request, { userId: await userIdOf(admin.request, account.email), typeId, maintenanceUntil: '2030-01-01' });
      await admin.close();

      await page.goto('/dashboard');
      const card = page.getByRole('article', { name: `License: Lab ${tag}` });
      const key = ((await card.locator('code').first().textContent()) ?? '').trim();
      expect(key).toMatch(/^DCTL-/);
      const software = await playwrightRequest.newContext({ baseURL: `http://localhost:${E2E_PORT}` });
      const activated = await software.post('/api/licensing/v1/activate', { data: { key, fingerprint: `fp-${tag}`, name: 'Lab PC 1', platform: 'linux-x64' } });
      expect(activated.status()).toBe(201);
      await software.dispose();

      await page.reload();
      await expect(card.getByText('1 of 2 seats in use')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, 'the dashboard');
      await expectFocusAlwaysShown(page, 'the dashboard');

      // The mails this took (verify the address, the license is active), as a mail client shows them. Only
      // the WCAG rules: landmarks and a <main> are a web page's structure, which mail clients strip.
      await expect.poll(() => mailsTo(account.email).map((mail) => mail.subject)).toContainEqual(expect.stringContaining('Your license is active'));
      const mails = await context.newPage();
      for (const mail of mailsTo(account.email)) {
        await mails.setContent(mail.html ?? '');
        expect(await violationsOn(mails, WCAG_RULE_SETS), `the mail "${mail.subject}"`).toEqual([]);
      }
      await context.close();
    });

    test('the admin’s screens, with a table, a menu, a dialog and an editor open, break no rule', async ({ browser }) => {
      const context = await adminContext(browser, width);
      const created = await context.request.post('/api/admin/api-tokens', {
        headers: await xsrfHeaders(context.request),
        data: { name: `Accessibility sweep ${width}`, scopes: ['users:read'], expires_days: 1 },
      });
      expect(created.status()).toBe(201);
      const tokenId = ((await created.json()) as { api_token: { id: number } }).api_token.id;
      const page = await context.newPage();

      await page.goto('/admin');
      await expect(page.getByText(/^Showing 1–/)).toBeVisible();
      await expect(page.getByRole('region', { name: 'API tokens table' })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, 'the admin console');
      await expectFocusAlwaysShown(page, 'the admin console');

      await page
        .getByRole('button', { name: /^Actions for / })
        .first()
        .click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expectAccessible(page, 'a user’s actions menu');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'License Types', exact: true }).click();
      const types = page.getByRole('dialog', { name: 'License Types' });
      await types.getByRole('button', { name: 'New Type' }).click();
      await expect(types.getByRole('form', { name: 'New license type' })).toBeVisible();
      await expectAccessible(page, 'the License Types dialog');
      await page.keyboard.press('Escape');

      await page.goto('/news');
      await page.getByRole('button', { name: 'Add Post' }).first().click();
      await expect(page.getByRole('toolbar', { name: 'Formatting' })).toBeVisible();
      await expectAccessible(page, 'the post editor');

      await page.goto('/downloads');
      await expect(page.getByRole('region', { name: 'Previous releases table' })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page, 'the downloads page as an admin sees it');
      // The token only gave the console a table to show: the integrations test expects its own alone.
      expect((await context.request.delete(`/api/admin/api-tokens/${tokenId}`, { headers: await xsrfHeaders(context.request) })).status()).toBe(200);
      await context.close();
    });
  });
}
