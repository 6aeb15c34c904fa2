// The defects readers and users met (issue 14, part 2), each at desktop and at phone width: the downloads
// warning, the Download button's styles, the license request's pending note, the banner's resend, the
// download notice of news and documentation, registration → login, the guarded pages' login, the slideshow
// controls and counter, the nav search box and the search index's math, the contact page's badge, the phone
// menu, the nav links' places and typographic titles. Content is the seeded demo content plus a news
// section and posts with attached files that beforeAll adds through the admin API.
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN } from './env.ts';
import { PASSWORD, registerAccount, uniqueEmail } from './accounts-support.ts';
import { clientHeaders, createVerifiedReader, logInContext } from './content-admin-support.ts';

// Several tests wait for a publish (a real astro build) and log in through the bot check.
test.describe.configure({ timeout: 150_000 });

const stamp = Date.now().toString(36);
/** A section and a post whose titles carry straight quotes: the pages must show typographic ones. */
const QUOTED = {
  section: `Editor's "picks" ${stamp}`,
  sectionShown: `Editor’s “picks” ${stamp}`,
  post: `The "new" importer's notes ${stamp}`,
  postShown: `The “new” importer’s notes ${stamp}`,
  word: `quokkaword${stamp}`,
};
const DOC_POST = `Calibration sheet ${stamp}`;

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error('element has no box (hidden?)');
  return found;
}

async function waitForPublish(request: APIRequestContext, headers: Record<string, string>): Promise<void> {
  await expect
    .poll(
      async () => {
        const status = (await (await request.get('/api/admin/publish', { headers })).json()) as { state: string; pending: boolean };
        return `${status.state}/${status.pending}`;
      },
      { timeout: 120_000, intervals: [500] },
    )
    .toBe('idle/false');
}

/** A post with an attached file in `namespace`, published; the section is made when `sectionTitle` is given. */
async function addPostWithFile(
  request: APIRequestContext,
  headers: Record<string, string>,
  namespace: 'news' | 'documentation',
  post: { title: string; body: string; sectionTitle?: string },
): Promise<void> {
  let sectionId: number;
  if (post.sectionTitle) {
    const created = await request.post(`/api/${namespace}/section/store`, { data: { title: post.sectionTitle, order: 99 }, headers });
    expect(created.status(), await created.text()).toBe(201);
    sectionId = ((await created.json()) as { section: { id: number } }).section.id;
  } else {
    const all = (await (await request.get(`/api/${namespace}/getposts`, { headers })).json()) as { sections: { id: number }[] };
    sectionId = all.sections[0]!.id;
  }
  const upload = await request.post(`/api/${namespace}/extrafiles`, {
    headers,
    multipart: { file: { name: `notes-${namespace}-${stamp}.txt`, mimeType: 'text/plain', buffer: Buffer.from('attached notes\n') }, description: 'Notes' },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const fileId = ((await upload.json()) as { file: { id: number } }).file.id;
  const stored = await request.post(`/api/${namespace}/store`, {
    data: { title: post.title, body: post.body, section_id: sectionId, uploaded_file_id: fileId, published: 1, display_order: 0 },
    headers,
  });
  expect(stored.status(), await stored.text()).toBe(201);
}

let adminContext: BrowserContext;
let adminHeaders: Record<string, string>;

test.beforeAll(async ({ browser }) => {
  adminContext = await browser.newContext();
  adminHeaders = await logInContext(adminContext, E2E_ADMIN);
  const request = adminContext.request;
  await addPostWithFile(request, adminHeaders, 'news', {
    title: QUOTED.post,
    body: `Read the ${QUOTED.word} before "importing".`,
    sectionTitle: QUOTED.section,
  });
  await addPostWithFile(request, adminHeaders, 'documentation', { title: DOC_POST, body: 'The calibration sheet as a file.' });
  await waitForPublish(request, adminHeaders);
});

test.afterAll(async () => {
  await adminContext.close();
});

/** A browser context with a registered account, signed in; verified when asked. */
async function signedInContext(browser: Browser, viewport: { width: number; height: number }, options: { verified: boolean }) {
  const context = await browser.newContext({ viewport });
  const account = { name: 'Rita Reader', email: uniqueEmail('reader-defects'), password: PASSWORD };
  if (options.verified) await createVerifiedReader(context, adminContext.request, account);
  else {
    await registerAccount(context.request, account);
    await logInContext(context, account);
  }
  return { context, account, page: await context.newPage() };
}

async function userId(context: BrowserContext): Promise<number> {
  const me = (await (await context.request.get('/api/user', { headers: await clientHeaders(context.request) })).json()) as { user: { id: number } };
  return me.user.id;
}

/** Opens the phone menu when the hamburger shows (390 px); a no-op at desktop width. */
async function openMenuIfCollapsed(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Menu' });
  if (await toggle.isVisible()) {
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  }
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.name} width (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test(`1. downloads warning: Login/Register for anonymous visitors, "verify your e-mail" with the resend link for unverified users (${viewport.name})`, async ({
      page,
      browser,
    }) => {
      await page.goto('/downloads');
      const warning = page.locator('[data-download-warning]');
      await expect(warning).toContainText('You must login to download software!');
      await warning.getByRole('button', { name: 'Register to download' }).click();
      await expect(page.getByRole('dialog', { name: 'Registration Form' })).toBeVisible();
      await page.keyboard.press('Escape');
      await warning.getByRole('button', { name: 'Login to download' }).click();
      await expect(page.getByRole('dialog', { name: 'Login Form' })).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`downloads-anonymous-${viewport.name}.png`) });

      const unverified = await signedInContext(browser, viewport, { verified: false });
      await unverified.page.goto('/downloads');
      const theirs = unverified.page.locator('[data-download-warning]');
      await expect(theirs).toContainText('Only verified user can use download!');
      await expect(theirs).toContainText('Verify your e-mail');
      // Signed in: they are not told to log in.
      await expect(theirs).not.toContainText('You must login');
      await expect(theirs.getByRole('button', { name: /login/i })).toHaveCount(0);
      await unverified.page.screenshot({ path: test.info().outputPath(`downloads-unverified-${viewport.name}.png`) });
      await theirs.getByRole('button', { name: 'Send a new confirmation e-mail' }).click();
      await expect(unverified.page.getByRole('dialog', { name: 'Verification sent' })).toBeVisible();
      await unverified.context.close();
    });

    test(`2. the Download button is styled from the start and keeps its size when hovered (${viewport.name})`, async ({ browser }) => {
      const reader = await signedInContext(browser, viewport, { verified: true });
      await reader.page.goto('/downloads');
      // The first card a verified reader without a license may download from (gated releases come first and
      // offer no button to them, issue 25).
      const button = reader.page
        .locator('.download-card')
        .getByRole('button', { name: /^Download / })
        .first();
      await expect(button).toBeVisible();
      const before = await box(button);
      const font = await button.evaluate((element) => [getComputedStyle(element).fontSize, getComputedStyle(document.body).fontSize]);
      expect(font[0]).toBe(font[1]);
      await button.hover();
      // Hovering loads the dialogs' sheet; nothing may change size when it arrives.
      await expect.poll(() => reader.page.locator('link[rel="stylesheet"][href*="islands"]').count()).toBeGreaterThan(0);
      await reader.page.waitForLoadState('networkidle');
      const after = await box(button);
      expect(after.width).toBeCloseTo(before.width, 0);
      expect(after.height).toBeCloseTo(before.height, 0);
      await reader.context.close();
    });

    test(`3. after Request License the dashboard says the license is requested at once (${viewport.name})`, async ({ browser }) => {
      const user = await signedInContext(browser, viewport, { verified: true });
      await user.page.goto('/dashboard');
      await expect(user.page.getByText('You have no license yet. Request a free trial license to try the software.')).toBeVisible();
      await user.page.getByRole('button', { name: 'Request License' }).click();
      await expect(user.page.getByRole('status', { name: 'Request Sent' })).toBeVisible();
      await expect(user.page.getByText('License requested – awaiting approval')).toBeVisible();
      await expect(user.page.getByText('You have no license yet. Request a free trial license to try the software.')).toBeHidden();
      await user.page.reload();
      await expect(user.page.getByText('License requested – awaiting approval')).toBeVisible();
      await user.context.close();
    });

    test(`4. the banner's resend shows the server's answer when the address is already verified (${viewport.name})`, async ({ browser }) => {
      const user = await signedInContext(browser, viewport, { verified: false });
      await user.page.goto('/news');
      const banner = user.page.getByRole('region', { name: 'E-mail not verified' });
      await expect(banner).toBeVisible();
      // Verified meanwhile (another tab followed the link): the page still shows the banner.
      const id = await userId(user.context);
      const update = await adminContext.request.put(`/api/user/update/${id}`, {
        data: { email_verified_at: true },
        headers: await clientHeaders(adminContext.request),
      });
      expect(update.status(), await update.text()).toBe(200);
      await banner.getByRole('button', { name: 'Send a new confirmation e-mail' }).click();
      await expect(banner.getByRole('status')).toHaveText('Your email is already verified.');
      await expect(user.page.getByRole('dialog', { name: 'Verification sent' })).toHaveCount(0);
      await user.context.close();
    });

    test(`5. news and documentation files ask anonymous readers to log in "to use download" (${viewport.name})`, async ({ page }) => {
      for (const path of [`/news`, `/documentation`]) {
        await page.goto(path === '/news' ? `/news/${await sectionSlug('news', QUOTED.section)}` : path);
        const area = page.locator('[data-post-download]').first();
        await expect(area, path).toContainText('You must be logged in to use download');
        await expect(area, path).not.toContainText('tutorial materials');
      }
    });

    test(`6. after registering, Log in switches the dialog to the login with the address filled in (${viewport.name})`, async ({ page }) => {
      const email = uniqueEmail('register-then-login');
      await page.goto('/');
      await openMenuIfCollapsed(page);
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      const registration = page.getByRole('dialog', { name: 'Registration Form' });
      await registration.getByLabel('User name').fill('Lena Login');
      await registration.getByLabel('Email').fill(email);
      await registration.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await registration.getByLabel('Confirm password').fill(PASSWORD);
      await registration.getByRole('button', { name: 'Register', exact: true }).click();
      await expect(registration.getByText(/Registration successful/)).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`registered-${viewport.name}.png`) });
      await registration.getByRole('button', { name: 'Log in', exact: true }).click();
      const login = page.getByRole('dialog', { name: 'Login Form' });
      await expect(login).toBeVisible();
      await expect(login.getByLabel('Email')).toHaveValue(email);
      await expect(login.getByLabel('Password', { exact: true })).toHaveValue('');
    });

    test(`7. a logged-out visit to /dashboard or /admin asks for the login and continues there; no open redirect (${viewport.name})`, async ({
      page,
      browser,
    }) => {
      const reader = await signedInContext(browser, viewport, { verified: true });
      await reader.context.close();

      await page.goto('/dashboard');
      const login = page.getByRole('dialog', { name: 'Login Form' });
      await expect(login).toBeVisible();
      await expect(login.getByText('Log in to see your dashboard')).toBeVisible();
      await expect(page).toHaveURL(/\/$/);
      await page.screenshot({ path: test.info().outputPath(`login-note-${viewport.name}.png`) });
      await login.getByLabel('Email').fill(reader.account.email);
      await login.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await login.getByRole('button', { name: 'Login', exact: true }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole('heading', { name: 'User Dashboard' })).toBeVisible();

      const admin = await browser.newPage({ viewport });
      await admin.goto('/admin');
      const adminLogin = admin.getByRole('dialog', { name: 'Login Form' });
      await expect(adminLogin.getByText('Log in to see the admin console')).toBeVisible();
      await adminLogin.getByLabel('Email').fill(E2E_ADMIN.email);
      await adminLogin.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
      await adminLogin.getByRole('button', { name: 'Login', exact: true }).click();
      await expect(admin).toHaveURL(/\/admin$/);

      // A crafted link to another site opens nothing and leads nowhere.
      const other = await browser.newPage({ viewport });
      await other.goto(`/?login=${encodeURIComponent('//evil.example/steal')}`);
      await expect(other).toHaveURL(/\/$/);
      await expect(other.getByRole('dialog', { name: 'Login Form' })).toHaveCount(0);
      await other.context().close();
      await admin.context().close();
    });

    test(`8. slideshow controls sit in the same place under every image, never over the caption, and the counter reads "Image 1 of 3" (${viewport.name})`, async ({
      page,
    }) => {
      const check = async (on: Page, who: string) => {
        await on.goto('/');
        const shows = on.locator('[data-slideshow][data-enhanced]');
        await expect(shows.first()).toBeVisible();
        const offsets: number[] = [];
        for (let index = 0; index < (await shows.count()); index++) {
          const show = shows.nth(index);
          await show.scrollIntoViewIfNeeded();
          const controls = show.locator('.slideshow__controls');
          await expect(controls).toBeVisible();
          const frame = await box(show.locator('.home-figures'));
          const bar = await box(controls);
          // Right under the frame, at its right edge.
          expect(bar.y, `${who}: controls below the image`).toBeGreaterThanOrEqual(frame.y + frame.height - 1);
          offsets.push(Math.round(bar.y - (frame.y + frame.height)));
          expect(Math.abs(bar.x + bar.width - (frame.x + frame.width)), `${who}: right-aligned with the image`).toBeLessThan(2);
          const caption = show.locator('.home-figures__item[data-active] figcaption');
          if (await caption.count()) expect(intersects(await box(caption), bar), `${who}: caption uncovered`).toBe(false);
          await expect(show.locator('.slideshow__status')).toMatchAriaSnapshot(`- paragraph: Image 1 of ${await show.locator('.home-figures__item').count()}`);
        }
        expect(
          offsets.every((offset) => offset === offsets[0] && offset < 16),
          `${who}: ${offsets.join(', ')}`,
        ).toBe(true);
      };
      await check(page, 'reader');
      await page.screenshot({ path: test.info().outputPath(`home-${viewport.name}.png`) });
      const admin = await adminContext.newPage();
      await admin.setViewportSize(viewport);
      await check(admin, 'admin');
      await admin.screenshot({ path: test.info().outputPath(`home-admin-${viewport.name}.png`) });
      await admin.close();
    });

    test(`9a. the magnifier opens the search field as keyboard focus does (${viewport.name})`, async ({ page }) => {
      await page.goto('/news');
      await openMenuIfCollapsed(page);
      const form = page.getByRole('search', { name: 'Site' });
      await form.getByRole('button', { name: 'Search' }).click();
      const field = form.getByRole('searchbox', { name: 'Search the site' });
      await expect(field).toBeFocused();
      await expect(field).toBeVisible();
      await expect(page).toHaveURL(/\/news(\/[^?]*)?(#.*)?$/);
      await page.screenshot({ path: test.info().outputPath(`search-field-${viewport.name}.png`) });
      // Typing and searching still goes to the results.
      await field.fill('Worst');
      await form.getByRole('button', { name: 'Search' }).click();
      await expect(page).toHaveURL(/\/search\?q=Worst$/);
    });

    test(`9b. search excerpts show the math once and readably, not KaTeX's rendering nor raw TeX (${viewport.name})`, async ({ page }) => {
      await page.goto('/search?q=Worst');
      const excerpt = page.locator('.search-result').filter({ hasText: 'Reference' }).locator('.search-result__excerpt').first();
      await expect(excerpt).toContainText('Worst');
      const text = (await page.locator('.search-results').innerText()).replace(/\s+/g, ' ');
      // KaTeX's rendering would repeat the formula as glyph runs (TWC…); the TeX source would show its commands
      // (issue 28, 2.12: decision 0049 turns the indexed TeX into a readable form).
      expect(text).not.toMatch(/TWC/);
      expect(text).not.toMatch(/\\(sum|text)\b/);
      expect(text).toContain('∑');
      await page.screenshot({ path: test.info().outputPath(`search-${viewport.name}.png`) });
    });

    test(`10. the contact page's bot-check badge covers nothing of the footer (${viewport.name})`, async ({ page }) => {
      await page.goto('/contact');
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      const copyright = page.locator('.site-footer p').first();
      const badge = page.locator('.botcheck-badge');
      if (viewport.width > 800) {
        await expect(badge).toBeVisible();
        expect(intersects(await box(badge), await box(copyright))).toBe(false);
        expect(intersects(await box(badge), await box(page.locator('.site-footer')))).toBe(false);
      } else await expect(badge).toBeHidden();
      await page.screenshot({ path: test.info().outputPath(`contact-${viewport.name}.png`), fullPage: true });
    });

    test(`11. the phone menu closes on a tap outside and on Escape (${viewport.name})`, async ({ page }) => {
      await page.goto('/news');
      const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Downloads' });
      const toggle = page.getByRole('button', { name: 'Menu' });
      if (viewport.width > 800) {
        // No menu to close: the links stay whatever is clicked.
        await page.mouse.click(viewport.width / 2, viewport.height - 40);
        await expect(links).toBeVisible();
        await expect(toggle).toBeHidden();
        return;
      }
      await toggle.click();
      await expect(links).toBeVisible();
      await page.mouse.click(viewport.width / 2, viewport.height - 40);
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');
      await expect(links).toBeHidden();
      await toggle.click();
      await expect(links).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(links).toBeHidden();
      await expect(toggle).toBeFocused();
    });

    test(`12. the nav links keep their places from page to page (${viewport.name})`, async ({ page }) => {
      const places = async (path: string) => {
        await page.goto(path);
        await openMenuIfCollapsed(page);
        return page
          .getByRole('navigation', { name: 'Main' })
          .locator('.site-links a')
          .evaluateAll((links) =>
            links.map((link) => `${link.textContent?.trim()}@${Math.round(link.getBoundingClientRect().x)},${Math.round(link.getBoundingClientRect().width)}`),
          );
      };
      const reference = await places('/');
      for (const path of ['/news', '/documentation', '/tutorials', '/downloads', '/contact']) expect(await places(path), path).toEqual(reference);
    });

    test(`13. post and section titles get the body's typographic quotes: page, sidebar, <title> and search (${viewport.name})`, async ({ page }) => {
      await page.goto(`/news/${await sectionSlug('news', QUOTED.section)}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(QUOTED.sectionShown);
      await expect(page.getByRole('heading', { level: 2, name: QUOTED.postShown })).toBeVisible();
      await expect(page).toHaveTitle(new RegExp(`News: ${QUOTED.sectionShown}$`));
      // The body's own quotes, for comparison: the same typography.
      await expect(page.locator('.post').filter({ hasText: QUOTED.word })).toContainText('before “importing”.');
      if (viewport.width > 800)
        await expect(page.getByRole('navigation', { name: 'News sections' }).getByRole('link', { name: QUOTED.postShown })).toBeVisible();

      await page.goto(`/search?q=${QUOTED.word}`);
      const result = page.locator('.search-result').first();
      await expect(result.getByRole('heading')).toHaveText(`News – ${QUOTED.sectionShown}`);
      await expect(result.getByRole('link', { name: QUOTED.postShown })).toBeVisible();
      await expect(page.locator('.search-results')).not.toContainText('"');
    });
  });
}

async function sectionSlug(namespace: 'news', title: string): Promise<string> {
  const all = (await (await adminContext.request.get(`/api/${namespace}/getposts`, { headers: adminHeaders })).json()) as {
    sections: { title: string; title_slug: string }[];
  };
  const found = all.sections.find((section) => section.title === title);
  if (!found) throw new Error(`no section ${title}`);
  return found.title_slug;
}
