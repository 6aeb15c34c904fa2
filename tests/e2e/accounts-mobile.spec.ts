// Under 800 px: the hamburger menu and the login modal (docs/product/routes.md#navigation-bar, docs/product/constants.md), and the modal's keyboard
// behaviour (Escape closes it and focus goes back to a visible control).
import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from './env.ts';

test.use({ viewport: { width: 390, height: 780 } });

test('the hamburger opens the menu, Login opens a modal that fits the phone, and an admin lands on /admin', async ({ page }) => {
  await page.goto('/news');
  const toggle = page.getByRole('button', { name: /menu/i });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const loginButton = page.getByRole('navigation', { name: /main/i }).getByRole('button', { name: 'Login' });
  await loginButton.click();
  // Choosing a button closes the menu (docs/product/routes.md#navigation-bar).
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');

  const dialog = page.getByRole('dialog', { name: 'Login Form' });
  await expect(dialog).toBeVisible();
  const box = await dialog.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await expect(dialog.getByLabel('Email')).toBeFocused();
  // Tab stays inside the modal: backwards from its first control wraps to its last.
  await dialog.getByRole('button', { name: 'Close' }).focus();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Register' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();

  // Escape closes it; the Login button is hidden in the closed menu, so focus goes to the menu button.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(toggle).toBeFocused();

  await toggle.click();
  await loginButton.click();
  await expect(dialog.getByLabel('Email')).toHaveValue('');
  await dialog.getByLabel('Email').fill(E2E_ADMIN.email);
  await dialog.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
  await dialog.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/?$/);
  await toggle.click();
  await expect(page.getByRole('navigation', { name: /main/i }).getByRole('button', { name: 'Logout' })).toBeVisible();
});
