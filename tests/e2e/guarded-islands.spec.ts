// docs/decisions/0038-guarded-islands.md: a signed-out visit to a guarded page (/dashboard, /admin) is sent
// home by the navigation guard, where the login dialog opens; it downloads that dialog and nothing of the
// screen it guards, because the screen's chunk is imported only once the session check allows it.
import { expect, test } from '@playwright/test';
import { measureTransferredScripts } from '../../scripts/js-bytes.ts';

// The chunks of the guarded screens, named by Vite after their modules: the dashboard island and its
// parts (src/islands/Dashboard.tsx, src/islands/dashboard/), the admin console (src/islands/admin-console/).
const GUARDED_SCREEN_CHUNK = /\/_astro\/(Dashboard|AdminConsole|UserCard|LicenseCard|TwoFactorCard|OwnDataCard|UsersSection|LicensePanel)[.-]/;
// What a signed-out /dashboard or /admin may transfer, as Chromium counts it: React's client (57 KB of it),
// the login dialog, the nav bar's script and the home page's, each file with about 0.9 KB of response
// headers. Measured 103–105 KB once the screens stopped loading (docs/decisions/0038-guarded-islands.md,
// which also says why issue 23's goal of 75 KB is not met yet); the ceiling catches any screen code creeping back.
const SIGNED_OUT_JS_BUDGET = 110 * 1024;

for (const [path, note] of [
  ['/dashboard', 'Log in to see your dashboard'],
  ['/admin', 'Log in to see the admin console'],
] as const) {
  test(`a signed-out visit to ${path} loads the login dialog and nothing of the screen it guards`, async ({ page }) => {
    const scripts = await measureTransferredScripts(page, async () => {
      await page.goto(path);
      const login = page.getByRole('dialog', { name: 'Login Form' });
      await expect(login.getByText(note)).toBeVisible();
      await page.waitForLoadState('networkidle');
    });
    const listing = [...scripts.files].map(([file, bytes]) => `${file} ${bytes}`).join('\n');
    test.info().annotations.push({ type: 'scripts', description: `${scripts.total} bytes\n${listing}` });
    console.log(`${path} signed out: ${scripts.total} bytes of JavaScript transferred\n${listing}`);

    expect([...scripts.files.keys()].filter((file) => GUARDED_SCREEN_CHUNK.test(file))).toEqual([]);
    expect(scripts.total, listing).toBeLessThanOrEqual(SIGNED_OUT_JS_BUDGET);
  });
}
