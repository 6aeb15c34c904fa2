// docs/engineering.md#keeping-public-pages-light: an anonymous reader of a news page downloads no React and no
// login code until they interact with the nav bar; clicking Login then loads the modal's chunk, and still no
// React: the account dialogs are plain DOM (docs/decisions/0055-account-dialogs-without-react.md).
import { expect, test, type Page, type Request } from '@playwright/test';

// React and React DOM (Vite names chunks after their modules, or after their group: `react-ui` holds React
// and React DOM, astro.config.mjs) and Astro's React renderer (`client`).
const REACT = /\/_astro\/(react|client)[.-]/i;
// The account dialogs with the bot check's solver and the passkey library (the `account-ui` group).
const MODAL_ROOT = /\/_astro\/(account-ui|botcheck)[.-]/;

/** Opens `path` as an anonymous reader and records the scripts and API calls made before any interaction. */
async function openAsReader(page: Page, path: string) {
  const scripts: string[] = [];
  const apiCalls: string[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url()).pathname;
    if (request.resourceType() === 'script') scripts.push(url);
    if (url.startsWith('/api/') || url.startsWith('/sanctum/')) apiCalls.push(url);
  });
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((url) => REACT.test(url) || MODAL_ROOT.test(url))).toEqual([]);
  return { scripts, apiCalls };
}

// The other public pages an anonymous reader lands on load neither either: a helper a page's script shares
// with the dialogs (a byte-size format, say) must not pull the dialogs' chunk in with it (astro.config.mjs).
for (const path of ['/', '/downloads', '/documentation']) {
  test(`${path} loads no React and no account dialogs before the reader interacts`, async ({ page }) => {
    await openAsReader(page, path);
  });
}

test('a news page loads no React before the reader interacts, and Login loads the modal', async ({ page }) => {
  const { scripts, apiCalls } = await openAsReader(page, '/news');
  // Nor the admins' inbox badge (docs/product/admin.md#inbox): only an admin's nav bar fetches it.
  expect(scripts.filter((url) => /\/_astro\/inbox-badge\./.test(url))).toEqual([]);
  // Nor did anything ask the API who is logged in: the reader has no signed_in hint.
  expect(apiCalls).toEqual([]);

  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('dialog', { name: 'Login Form' })).toBeVisible();
  expect(scripts.some((url) => MODAL_ROOT.test(url))).toBe(true);
  expect(scripts.filter((url) => REACT.test(url))).toEqual([]);
});
