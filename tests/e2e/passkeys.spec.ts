// Passkeys in the browser (docs/product/accounts.md#passkeys), with Chromium's virtual authenticator (DevTools
// protocol: CTAP2, internal transport, resident keys, user verification) standing in for a phone or laptop, at
// desktop and phone widths: add a passkey from the dashboard, log out, sign in with it alone, log out, sign in
// with the password and the passkey as the second step, and remove it.
import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { PASSWORD, logInThroughApi, registerAccount, uniqueEmail, xsrfHeaders } from './accounts-support.ts';

async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
}

/** At 390 px the nav bar folds behind its menu button, which exists only once the nav script ran. */
async function openNavMenu(page: Page): Promise<void> {
  await page.locator('[data-nav][data-enhanced]').waitFor({ state: 'attached' });
  const toggle = page.locator('[data-nav-toggle]');
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

async function logOut(page: Page): Promise<void> {
  await openNavMenu(page);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
}

async function openLogin(page: Page) {
  await openNavMenu(page);
  await page.getByRole('button', { name: 'Login' }).click();
  return page.getByRole('dialog', { name: 'Login Form' });
}

/** Two-factor on through the API, so the second sign-in below has a second step. */
async function enrolTwoFactor(page: Page): Promise<void> {
  const headers = await xsrfHeaders(page.request);
  const setup = await page.request.post('/api/user/two-factor/setup', { headers });
  const { secret } = (await setup.json()) as { secret: string };
  const code = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();
  expect((await page.request.post('/api/user/two-factor/enable', { headers, data: { code } })).status()).toBe(200);
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 900 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('add a passkey, sign in with it alone and as the second step, remove it', async ({ page }, testInfo) => {
      const email = uniqueEmail(`passkey-${viewport.width}`);
      await registerAccount(page.request, { name: 'Pat Key', email, password: PASSWORD });
      await logInThroughApi(page.request, email, PASSWORD);
      await enrolTwoFactor(page);
      await addVirtualAuthenticator(page);

      // Add: the sign-in is fresh, so only a name is asked for.
      await page.goto('/dashboard');
      const card = page.getByRole('region', { name: 'Passkeys' });
      await expect(card.getByText('No passkeys yet.')).toBeVisible();
      await card.getByRole('button', { name: 'Add a passkey' }).click();
      const add = page.getByRole('dialog', { name: 'Add a passkey' });
      await expect(add.getByLabel('Name')).toBeFocused();
      await expect(add.getByLabel('Password')).toHaveCount(0);
      await add.getByLabel('Name').fill('Test laptop');
      await add.getByRole('button', { name: 'Add passkey' }).click();
      await expect(add).toBeHidden();
      await expect(card.getByText('Test laptop has been added. You can now sign in with it.')).toBeVisible();
      const list = card.getByRole('list', { name: 'Your passkeys' });
      await expect(list.getByRole('listitem').filter({ hasText: 'Test laptop' })).toBeVisible();
      await expect(list.getByText(/last used never/)).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await card.screenshot({ path: testInfo.outputPath(`passkeys-card-${viewport.width}.png`) });

      // Sign in with the passkey alone, from the e-mail field's autofill (conditional mediation): Chromium's
      // virtual authenticator picks the passkey at once where a person would choose it from the suggestions.
      await logOut(page);
      await openLogin(page);
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole('region', { name: 'Passkeys' }).getByText(/last used/)).not.toContainText('never');

      // The same browser without autofill for passkeys (as some are): the button, then the second step,
      // each without the autofill's waiting request answering first.
      await page.addInitScript(() => {
        PublicKeyCredential.isConditionalMediationAvailable = async () => false;
      });
      await logOut(page);
      const login = await openLogin(page);
      await expect(login.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn');
      await expect(login.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
      await login.screenshot({ path: testInfo.outputPath(`login-${viewport.width}.png`) });
      await login.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);

      // The password, then the passkey as the second step.
      await logOut(page);
      const second = await openLogin(page);
      await second.getByLabel('Email').fill(email);
      await second.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await second.getByRole('button', { name: 'Login', exact: true }).click();
      // The code step has its own title (issue 28, 2.21).
      const codeStep = page.getByRole('dialog', { name: 'Two-factor sign-in' });
      await expect(codeStep.getByLabel('Authentication code')).toBeVisible();
      await codeStep.screenshot({ path: testInfo.outputPath(`second-step-${viewport.width}.png`) });
      await codeStep.getByRole('button', { name: 'Use a passkey instead' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);

      // Remove: this sign-in began with the password, so the password is asked for.
      const passkeys = page.getByRole('region', { name: 'Passkeys' });
      await passkeys.getByRole('button', { name: 'Remove Test laptop' }).click();
      const remove = page.getByRole('dialog', { name: 'Remove passkey' });
      await expect(remove.getByLabel('Password')).toBeFocused();
      await remove.getByLabel('Password').fill(PASSWORD);
      await remove.getByRole('button', { name: 'Remove', exact: true }).click();
      await expect(remove).toBeHidden();
      await expect(passkeys.getByText('Test laptop has been removed.')).toBeVisible();
      await expect(passkeys.getByText('No passkeys yet.')).toBeVisible();
    });
  });
}
