// The accounts flows as a visitor meets them in the browser (issue 3, "Tests that must exist"): register,
// verify through the mailed link, log in with Remember me, use the dashboard, log out; forgotten password;
// the contact form; the guards of docs/product/routes.md#route-table, docs/product/routes.md#navigation-guard.
import { expect, test } from '@playwright/test';
import { NEW_PASSWORD, PASSWORD, pathOf, registerAccount, uniqueEmail, waitForMailLink } from './accounts-support.ts';

test('register, verify by the mailed link, log in remembered, edit the profile, request a license, log out', async ({ page, context }) => {
  const email = uniqueEmail('register');
  await page.goto('/');

  await page.getByRole('button', { name: 'Register' }).click();
  const registration = page.getByRole('dialog', { name: 'Registration Form' });
  await expect(registration).toBeVisible();
  await registration.getByLabel('User name').fill('Ada Tester');
  await registration.getByLabel('Email').fill(email);
  await registration.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await registration.getByLabel('Confirm password').fill(PASSWORD);
  await registration.getByRole('button', { name: 'Register', exact: true }).click();
  await expect(registration.getByText(/Registration successful/)).toBeVisible();
  // docs/product/states.md: the form is cleared after a successful registration.
  await expect(registration.getByLabel('Email')).toHaveValue('');
  await expect(registration.getByLabel('User name')).toHaveValue('');
  await page.keyboard.press('Escape');
  await expect(registration).toBeHidden();

  const link = await waitForMailLink(email, '/api/auth/email/verify/');
  await page.goto(pathOf(link));
  await expect(page).toHaveURL(/\/email\/verified\?validation=1/);
  await expect(page.getByText('Your email has been verified.')).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  // Not logged in yet: Go To Dashboard asks for the login first, with the address filled in.
  await page.getByRole('button', { name: 'Go To Dashboard' }).click();
  const login = page.getByRole('dialog', { name: 'Login Form' });
  await expect(login.getByLabel('Email')).toHaveValue(email);
  await login.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await login.getByLabel('Remember me').check();
  await login.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/?$/);

  // Remember me: the session cookie outlives the browser (it has an expiry).
  const session = (await context.cookies()).find((cookie) => cookie.name === 'session');
  expect(session?.expires ?? -1).toBeGreaterThan(Date.now() / 1000 + 7 * 24 * 3600);

  await expect(page.getByRole('heading', { name: 'User Dashboard' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: /main/i });
  await expect(nav.getByRole('link', { name: 'Ada Tester' })).toHaveAttribute('title', 'Go to dashboard');
  const card = page.getByRole('region', { name: 'Your details' });
  await expect(card.getByText(email)).toBeVisible();
  await expect(card.getByText('YES')).toBeVisible();
  await expect(page.getByText('You have no license yet. Request a free trial license to try the software.')).toBeVisible();
  // Verified: no banner.
  await expect(page.getByText(/Email not verified/)).toBeHidden();

  await page.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit your details' });
  await edit.getByLabel('Surname').fill('Lovelace');
  await edit.getByLabel('Company Name').fill('Analytical Engines Ltd');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(card.getByText('Lovelace')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Your details' }).getByText('Analytical Engines Ltd')).toBeVisible();

  await page.getByRole('button', { name: 'Request License' }).click();
  const sent = page.getByRole('status').filter({ hasText: 'Request Sent' });
  await expect(sent).toBeVisible();
  await expect(sent).toContainText(email);
  await expect(page.getByRole('button', { name: 'Request License' })).toHaveCount(0);
  // Still gone after a reload: the request is stored.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Your details' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Request License' })).toHaveCount(0);

  await nav.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(nav.getByRole('button', { name: 'Login' })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Register' })).toBeVisible();
});

test('a forgotten password is reset from the login modal and the new one logs in', async ({ page, request }) => {
  const email = uniqueEmail('reset');
  await registerAccount(request, { name: 'Reset Tester', email, password: PASSWORD });

  await page.goto('/documentation');
  await page.getByRole('button', { name: 'Login' }).click();
  const login = page.getByRole('dialog', { name: 'Login Form' });
  await login.getByLabel('Email').fill(email);
  await login.getByRole('link', { name: 'Forgot password' }).click();
  await expect(page).toHaveURL(/\/reset-password/);

  const address = page.getByLabel('Enter your email:');
  await expect(address).toHaveValue(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Message sent, please check your mailbox.')).toBeVisible();

  const link = await waitForMailLink(email, '/reset-pasword/form');
  await page.goto(pathOf(link));
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Send new reset link' })).toBeVisible();
  // Mismatched confirmation: the server's field error, nothing changed.
  await page.getByLabel('New Password').fill(NEW_PASSWORD);
  await page.getByLabel('Confirm Password').fill(`${NEW_PASSWORD}-typo`);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByLabel('New Password')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Confirm Password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(/Your password has been reset/)).toBeVisible();

  await page.getByRole('button', { name: 'Log in' }).click();
  const again = page.getByRole('dialog', { name: 'Login Form' });
  await expect(again.getByLabel('Email')).toHaveValue(email);
  // The old password no longer works.
  await again.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await again.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(again.getByText('These credentials do not match our records.')).toBeVisible();
  await again.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await again.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/?$/);
  await expect(page.getByRole('region', { name: 'Your details' }).getByText(email)).toBeVisible();
});

test('the contact form shows field errors, then sends and clears its message after 5 s', async ({ page }) => {
  await page.goto('/contact');
  await expect(page.getByRole('heading', { name: 'Use the form for any enquiries:' })).toBeVisible();
  const send = page.getByRole('button', { name: 'Send Email' });
  await expect(send).toBeEnabled();

  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel('Message').fill('Do you offer on-site training?');
  await send.click();
  await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('The email field must be a valid email address.')).toBeVisible();
  await expect(page.getByText('The name field is required.')).toBeVisible();

  await page.getByLabel('Name').fill('Grace Visitor');
  await page.getByLabel('Email').fill(uniqueEmail('contact'));
  await send.click();
  const sent = page.getByText('Message sent.');
  await expect(sent).toBeVisible();
  await expect(page.getByLabel('Email')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Message')).toHaveValue('');
  // docs/product/constants.md: messages clear after 5000 ms.
  await expect(sent).toBeHidden({ timeout: 8_000 });
});

test('guarded and query-bound pages send visitors home', async ({ page }) => {
  for (const path of ['/dashboard', '/admin', '/email/verified', '/reset-pasword/form?email=a%40example.com']) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/$/);
  }
});
