// The foundation as a reader meets it: the seeded home page and nav bar, the hamburger below 800 px,
// and the redirect of unknown paths to home (docs/product/routes.md#route-table, docs/product/routes.md#navigation-bar, docs/product/reading.md#home).
import { expect, test } from '@playwright/test';

test('home shows the seeded sections and the navigation bar', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/^Dimensional Control \d{4}/);
  await expect(page.getByRole('heading', { name: 'Dimensional control you can trust' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: /main/i });
  for (const name of ['News', 'Documentation', 'Tutorials', 'Downloads', 'Contact Us']) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  }
  const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
  expect(canonical).toMatch(/^http:\/\/localhost:\d+\/$/);
});

test('the hamburger menu opens and closes under 800 px', async ({ page }) => {
  await page.setViewportSize({ width: 600, height: 900 });
  await page.goto('/');
  const toggle = page.getByRole('button', { name: /menu/i });
  const newsLink = page.getByRole('navigation', { name: /main/i }).getByRole('link', { name: 'News', exact: true });
  await expect(toggle).toBeVisible();
  await expect(newsLink).toBeHidden();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(newsLink).toBeVisible();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(newsLink).toBeHidden();
  // Choosing a link closes the menu too.
  await toggle.click();
  await newsLink.click();
  await expect(page).toHaveURL(/\/news\/?/);
  await expect(page.getByRole('button', { name: /menu/i })).toHaveAttribute('aria-expanded', 'false');
});

test('an unknown path lands on home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Dimensional control you can trust' })).toBeVisible();
});

test('the current section is highlighted in the navigation', async ({ page }) => {
  await page.goto('/documentation');
  const nav = page.getByRole('navigation', { name: /main/i });
  await expect(nav.getByRole('link', { name: 'Documentation', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'News', exact: true })).not.toHaveAttribute('aria-current', 'page');
});
