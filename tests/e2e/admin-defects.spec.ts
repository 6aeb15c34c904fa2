// The defects admins met (issue 14, part 2), each fixed with a test that failed before: a post saved into
// another section lands on that post in its own section; the admin's own page shows a new section and a
// renamed image at once; the publish state stays in view after a save; the users table fits a desktop
// window with a compact, keyboard-driven actions menu, and the license table fits its card; Manage Banned
// Domains shows its Delete Domain buttons and drops an old error after a delete; the admin's own row
// offers no Ban or Delete User; releases are deleted through the site's dialog and written with the
// markdown editor; an image is uploaded with a title and alt text. Screenshots of each screen at 1280
// and 390 px go to test-results/admin-defects/. Each test cleans up what other spec files would notice.
import { expect, test, type APIRequestContext, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN } from './env.ts';
import { clientHeaders, logInContext, makePng, waitForLive } from './content-admin-support.ts';
import { slugify } from '../../common/slugify.ts';

// Independent tests (one failing does not skip the others); one worker runs them in order.
test.describe.configure({ timeout: 240_000 });

const stamp = Date.now().toString(36);
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const VIEWPORTS = [
  { name: 'desktop', viewport: DESKTOP },
  { name: 'phone', viewport: PHONE },
] as const;

let admin: BrowserContext;

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext({ viewport: DESKTOP });
  await logInContext(admin, E2E_ADMIN);
});

// Every page the test left open, as it ended (the state a failure left, too), then closed.
// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a hook uses from this pattern.
test.afterEach(async ({}, testInfo) => {
  const pages = admin?.pages() ?? [];
  for (const [index, page] of pages.entries()) {
    const size = page.viewportSize();
    await page.screenshot({ path: testInfo.outputPath(`end-${index}-${size?.width ?? 0}.png`), fullPage: false }).catch(() => undefined);
    await page.close();
  }
});

test.afterAll(async () => {
  await admin?.close();
});

async function adminPage(viewport: { width: number; height: number }): Promise<Page> {
  const page = await admin.newPage();
  await page.setViewportSize(viewport);
  return page;
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

async function apiJson<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path, { headers: await clientHeaders(request) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

type SectionWithPosts = { id: number; title: string; title_slug: string; posts: { id: number; title: string; section_id: number }[] };

async function newsSections(request: APIRequestContext): Promise<SectionWithPosts[]> {
  const answer = await apiJson<{ sections: SectionWithPosts[] } | SectionWithPosts[]>(request, '/api/news/getposts');
  return Array.isArray(answer) ? answer : answer.sections;
}

async function deletePostTitled(request: APIRequestContext, title: string): Promise<void> {
  for (const section of await newsSections(request)) {
    for (const post of section.posts.filter((entry) => entry.title === title)) {
      const response = await request.delete('/api/news/delete', { data: { id: post.id, section_id: post.section_id }, headers: await clientHeaders(request) });
      expect(response.status(), await response.text()).toBe(200);
    }
  }
}

/** True when the element's box lies inside the other's (1 px tolerance for rounding). */
async function inside(inner: Locator, outer: Locator): Promise<boolean> {
  const [a, b] = await Promise.all([inner.boundingBox(), outer.boundingBox()]);
  if (!a || !b) return false;
  return a.x >= b.x - 1 && a.y >= b.y - 1 && a.x + a.width <= b.x + b.width + 1 && a.y + a.height <= b.y + b.height + 1;
}

for (const { name, viewport } of VIEWPORTS) {
  test(`item 1 (${name}): a post saved into another section lands on the saved post in its own section, the address matching`, async () => {
    const page = await adminPage(viewport);
    const title = `Moved here ${name} ${stamp}`;
    try {
      await page.goto('/news');
      const tools = page.getByRole('region', { name: 'Manage News' });
      await expect(tools).toBeVisible();
      await expect(page.locator('.posts-heading')).toHaveText('Company News');
      await tools.getByRole('button', { name: 'Add Post' }).click();
      const form = page.locator('[data-post-form]');
      const option = (await form.getByLabel('Section').locator('option', { hasText: 'Product Updates' }).textContent()) ?? '';
      await form.getByLabel('Section').selectOption({ label: option });
      await form.getByLabel('Title').fill(title);
      await form.getByLabel('Body', { exact: true }).fill('Saved from the Company News page into Product Updates.');
      await form.getByRole('button', { name: 'Save post' }).click();

      const slug = slugify(title);
      await expect(page).toHaveURL(new RegExp(`/news/product-updates#${slug}$`));
      await expect(page.locator('.posts-heading')).toHaveText('Product Updates');
      const article = page.locator(`article#${slug}`);
      await expect(article).toBeVisible();
      await expect(article).toBeInViewport();
      await expect(article).toContainText(title);
      // Nothing rewrites the address afterwards (the scroll-spy, the old page's scripts).
      await page.waitForTimeout(1500);
      await expect(page).toHaveURL(new RegExp(`/news/product-updates#${slug}$`));
      await expect(article).toBeInViewport();
      await shoot(page, `1-saved-post-${name}`);
    } finally {
      await deletePostTitled(admin.request, title);
    }
  });
}

test('item 2: after Add Section the sidebar lists the new section; after renaming an image the slideshow shows the new caption', async () => {
  for (const { name, viewport } of VIEWPORTS) {
    const page = await adminPage(viewport);
    const sectionTitle = `Fresh Section ${name} ${stamp}`;
    await page.goto('/news');
    await page.getByRole('region', { name: 'Manage News' }).getByRole('button', { name: 'Add Section' }).click();
    const panel = page.getByRole('dialog', { name: /Sections$/ });
    await panel.getByLabel('Title').fill(sectionTitle);
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(panel.getByText('Section created.')).toBeVisible();
    await panel.getByRole('button', { name: 'Close' }).click();
    const sidebar = page.getByRole('navigation', { name: 'News sections' });
    const entry = sidebar.getByRole('link', { name: new RegExp(sectionTitle) });
    await expect(entry).toBeVisible();
    await expect(entry).toContainText('not on the site yet');
    await shoot(page, `2-sidebar-${name}`);
    // Choosing it shows the (empty) section here.
    await entry.click();
    await expect(page.locator('.posts-heading')).toHaveText(sectionTitle);
    await expect(page.getByText('No posts in this section yet.')).toBeVisible();
    const section = (await newsSections(admin.request)).find((candidate) => candidate.title === sectionTitle);
    expect(section).toBeTruthy();
    const removed = await admin.request.delete('/api/news/section/delete', { data: { id: section!.id }, headers: await clientHeaders(admin.request) });
    expect(removed.status(), await removed.text()).toBe(200);
  }

  // The home slideshow: the first section's first image, renamed in the home image manager.
  const page = await adminPage(DESKTOP);
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Manage the home page' })).toBeVisible();
  const figure = page.locator('[data-home-section] li[data-image-id]').first();
  const imageId = await figure.getAttribute('data-image-id');
  const images = await apiJson<{ images: { id: number; title: string; alt: string }[] }>(admin.request, '/api/home/images');
  const image = images.images.find((candidate) => String(candidate.id) === imageId)!;
  const renamed = `Renamed caption ${stamp}`;
  try {
    await page.getByRole('button', { name: 'Manage images' }).click();
    const dialog = page.getByRole('dialog', { name: 'Home images' });
    const item = dialog.locator(`[data-image-item="${imageId}"]`);
    await item.getByLabel('Title').fill(renamed);
    await item.getByRole('button', { name: /^Save details/ }).click();
    await expect(item.getByRole('status')).not.toBeEmpty();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(figure.locator('figcaption')).toHaveText(renamed);
    await shoot(page, '2-slideshow-caption-desktop');
  } finally {
    const restore = await admin.request.put('/api/home/images/update', {
      data: { id: image.id, title: image.title },
      headers: await clientHeaders(admin.request),
    });
    expect(restore.status(), await restore.text()).toBe(200);
  }
});

test('item 3: after saving a home section the publish state stays in view, announced politely', async () => {
  for (const { name, viewport } of VIEWPORTS) {
    const page = await adminPage(viewport);
    await page.goto('/');
    await expect(page.getByRole('region', { name: 'Manage the home page' })).toBeVisible();
    const sections = await apiJson<{ sections: { id: number; title: string }[] }>(admin.request, '/api/home/getSections');
    const last = sections.sections.at(-1)!;
    await page.getByRole('button', { name: `Edit ${last.title}` }).click();
    await page.getByRole('button', { name: 'Update section' }).click();
    const status = page.locator('[data-publish-state]');
    await expect(status).toHaveAttribute('role', 'status');
    await expect(status).toHaveAttribute('aria-live', 'polite');
    await expect(status).toContainText(/Publishing…|Live/);
    // The page scrolled to the saved section: the status is still on screen, not under the header.
    await expect(status).toBeInViewport();
    const box = await status.boundingBox();
    expect(box!.y).toBeGreaterThan(60);
    // Floating over the page, it never takes a click meant for what lies under it (an Update button).
    await expect(status).toHaveClass(/publish-state--floating/);
    expect(await status.evaluate((element) => getComputedStyle(element).pointerEvents)).toBe('none');
    await shoot(page, `3-publish-state-${name}`);
    await waitForLive(page);
  }
});

function usersRegion(page: Page): Locator {
  return page.getByRole('region', { name: /^Users table/ });
}

function rowOf(page: Page, email: string): Locator {
  return page.locator('tbody tr.admin-users__row').filter({ hasText: email });
}

async function openAdmin(viewport: { width: number; height: number }): Promise<Page> {
  const page = await adminPage(viewport);
  await page.goto('/admin');
  await expect(page.getByText(/^Showing 1–/)).toBeVisible();
  return page;
}

test('item 4: the row actions are a compact keyboard menu pinned beside the data; the details and license table are whole', async () => {
  const page = await openAdmin(DESKTOP);
  const scroller = usersRegion(page);
  const row = rowOf(page, E2E_ADMIN.email);
  // Compact: the actions column no longer takes ~420 px of a 1280 px window.
  const actionsCell = row.locator('.admin-users__actions');
  expect((await actionsCell.boundingBox())!.width).toBeLessThan(320);
  // Pinned: scrolled to the last column, every row's actions are still in the table's view.
  await scroller.evaluate((element) => element.scrollTo({ left: element.scrollWidth, behavior: 'instant' }));
  expect(await scroller.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  expect(await inside(row.getByRole('button', { name: /^Actions/ }), scroller)).toBe(true);
  expect(await inside(row.getByRole('button', { name: /^Details/ }), scroller)).toBe(true);
  await shoot(page, '4-users-scrolled-desktop');
  await scroller.evaluate((element) => element.scrollTo({ left: 0, behavior: 'instant' }));

  const menuButton = row.getByRole('button', { name: /^Actions/ });
  await expect(menuButton).toHaveAttribute('aria-haspopup', 'menu');
  await menuButton.focus();
  await page.keyboard.press('ArrowDown');
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
  await expect(menu.getByRole('menuitem', { name: /^Edit User/ })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: /^Delete User/ })).toBeFocused();
  await page.keyboard.press('End');
  await expect(menu.getByRole('menuitem', { name: /^Ban/ })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: /^Edit User/ })).toBeFocused();
  await shoot(page, '4-actions-menu-desktop');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(menuButton).toBeFocused();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
  // Enter on an item runs it.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: /^Edit User/ })).toBeVisible();
  await page.keyboard.press('Escape');

  // The admin's own details with a license: the whole card is in the page, the license table in its card.
  const me = await apiJson<{ user: { id: number } }>(admin.request, '/api/user');
  const all = await apiJson<{ license_types: { id: number; name: string }[] }>(admin.request, '/api/license/getAll');
  const perpetual = all.license_types.find((type) => type.name === 'perpetual');
  expect(perpetual).toBeTruthy();
  const created = await admin.request.post('/api/license/store', {
    data: { user_id: me.user.id, license_type_id: perpetual!.id, active: true },
    headers: await clientHeaders(admin.request),
  });
  expect(created.status(), await created.text()).toBeLessThan(300);
  const licenseId = ((await created.json()) as { license: { id: number } }).license.id;
  try {
    for (const { name, viewport } of VIEWPORTS) {
      const view = await openAdmin(viewport);
      const mine = rowOf(view, E2E_ADMIN.email);
      await mine.getByRole('button', { name: /^Details/ }).click();
      const card = view.locator(`#admin-user-details-${me.user.id}`);
      await expect(card.getByText('License Requested')).toBeVisible();
      await expect(card.getByText('License Granted')).toBeVisible();
      // Not inside a nested vertical scroller that hides the end of the details.
      expect(await usersRegion(view).evaluate((element) => element.scrollHeight <= element.clientHeight + 1)).toBe(true);
      const licenses = view.getByRole('region', { name: 'Licenses table' });
      const table = licenses.locator('table');
      // Header cells keep their space: each header's text fits its cell.
      for (const header of await table.locator('thead th').all()) {
        expect(await header.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true);
      }
      // The buttons are in the card, scrolled or not (their column is pinned at the right edge).
      const licenseRow = table.locator('tbody tr').filter({ hasText: 'perpetual' });
      await licenses.evaluate((element) => element.scrollTo({ left: 0, behavior: 'instant' }));
      expect(await inside(licenseRow.getByRole('button', { name: /^Edit/ }), licenses)).toBe(true);
      expect(await inside(licenseRow.getByRole('button', { name: /^Delete/ }), licenses)).toBe(true);
      await licenses.scrollIntoViewIfNeeded();
      await shoot(view, `4-license-table-${name}`);
    }
  } finally {
    const removed = await admin.request.delete(`/api/license/delete/${licenseId}`, { headers: await clientHeaders(admin.request) });
    expect(removed.status(), await removed.text()).toBeLessThan(300);
  }
});

test('item 5: Manage Banned Domains shows each Delete Domain button whole and drops an old validation error after a delete', async () => {
  for (const { name, viewport } of VIEWPORTS) {
    const page = await openAdmin(viewport);
    await page.getByRole('button', { name: 'Manage Banned Domains', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Manage Banned Domains' });
    const domain = `spam-${name}-${stamp}.example`;
    await dialog.getByRole('textbox', { name: 'Domain' }).fill(domain);
    await dialog.getByRole('button', { name: 'Add Domain' }).click();
    await expect(dialog.getByRole('row').filter({ hasText: domain })).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Domain' }).fill('not a domain');
    await dialog.getByRole('button', { name: 'Add Domain' }).click();
    const error = dialog.locator('.field__error');
    await expect(error).toBeVisible();
    const button = dialog.getByRole('button', { name: `Delete Domain ${domain}` });
    const region = dialog.getByRole('region', { name: 'Banned domains' });
    expect(await inside(button, region)).toBe(true);
    // A desktop dialog holds the whole table; on a phone the button's column is pinned in view.
    if (name === 'desktop') expect(await region.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true);
    await region.evaluate((element) => element.scrollTo({ left: 0, behavior: 'instant' }));
    expect(await inside(button, region)).toBe(true);
    await shoot(page, `5-domains-${name}`);
    await button.click();
    await page.getByRole('dialog', { name: 'Delete Domain' }).getByRole('button', { name: 'Delete Domain' }).click();
    await expect(dialog.getByText(new RegExp(`\\(${domain.replace(/\./g, '\\.')}\\)`))).toBeVisible();
    await expect(error).toHaveCount(0);
    await expect(dialog.getByRole('textbox', { name: 'Domain' })).not.toHaveAttribute('aria-invalid', 'true');
  }
});

test("item 6: Ban and Delete User are disabled on the admin's own row, with the reason, and ask nothing", async () => {
  for (const { name, viewport } of VIEWPORTS) {
    const page = await openAdmin(viewport);
    await rowOf(page, E2E_ADMIN.email)
      .getByRole('button', { name: /^Actions/ })
      .click({ timeout: 15_000 });
    const menu = page.getByRole('menu');
    const remove = menu.getByRole('menuitem', { name: /^Delete User/ });
    const ban = menu.getByRole('menuitem', { name: /^Ban/ });
    await expect(remove).toHaveAttribute('aria-disabled', 'true');
    await expect(remove).toHaveAccessibleDescription('You cannot delete your own account.');
    await expect(remove).toHaveAttribute('title', 'You cannot delete your own account.');
    await expect(ban).toHaveAttribute('aria-disabled', 'true');
    await expect(ban).toHaveAccessibleDescription('You cannot ban yourself.');
    await expect(menu.getByRole('menuitem', { name: /^Edit User/ })).not.toHaveAttribute('aria-disabled', 'true');
    await shoot(page, `6-own-row-${name}`);
    // Pressing them anyway does nothing (force: Playwright would wait for an aria-disabled item forever).
    await remove.click({ force: true });
    await ban.click({ force: true });
    await expect(page.getByRole('dialog', { name: 'Delete User' })).toHaveCount(0);
    await expect(page.getByRole('dialog', { name: 'Ban User' })).toHaveCount(0);
  }
});

test('item 7: a release is written with the markdown editor and deleted through the site dialog', async () => {
  for (const { name, viewport } of VIEWPORTS) {
    const page = await adminPage(viewport);
    const nativeDialogs: string[] = [];
    page.on('dialog', (dialog) => {
      nativeDialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto('/downloads');
    const form = page.getByRole('form', { name: 'Add a release' });
    await expect(form).toBeVisible();
    const title = `Notes release ${name} ${stamp}`;
    await form.getByLabel('Title', { exact: true }).fill(title);
    await expect(form.getByRole('toolbar', { name: 'Formatting' })).toBeVisible();
    const body = form.getByLabel('Body', { exact: true });
    await body.fill('Fixes');
    await body.selectText();
    await form.getByRole('button', { name: /^Bold/ }).click();
    await expect(body).toHaveValue('**Fixes**');
    await expect(form.getByRole('region', { name: 'Body: preview' }).locator('strong')).toHaveText('Fixes');
    await form.getByLabel('Downloadable').uncheck();
    await shoot(page, `7-release-form-${name}`);
    await form.getByRole('button', { name: 'Add Release' }).click();
    await expect(page.getByText('Release created.')).toBeVisible();
    await page
      .getByRole('button', { name: `Delete ${title}` })
      .first()
      .click();
    const confirm = page.getByRole('dialog', { name: 'Delete release' });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('button', { name: `Delete ${title}` })).toHaveCount(0);
    expect(nativeDialogs).toEqual([]);
  }
});

test('item 8: an image is uploaded with a title and alt text, pre-filled from its file name, with a warning while alt is empty', async () => {
  for (const { name, viewport } of VIEWPORTS) {
    const page = await adminPage(viewport);
    await page.goto('/news');
    await page.getByRole('region', { name: 'Manage News' }).getByRole('button', { name: 'Add Post' }).click();
    await page.getByRole('button', { name: 'Images: upload or insert into the text' }).click();
    const dialog = page.getByRole('dialog', { name: 'Images' });
    await dialog.getByLabel('Image file').setInputFiles({ name: `gauge_r-r-${name}-${stamp}.png`, mimeType: 'image/png', buffer: await makePng('#2a6') });
    const upload = dialog.locator('form.image-manager__upload');
    const titleField = upload.getByLabel('Title', { exact: true });
    const altField = upload.getByLabel('Alt text', { exact: true });
    await expect(titleField).toHaveValue(`Gauge r r ${name} ${stamp}`);
    await expect(altField).toHaveValue(`Gauge r r ${name} ${stamp}`);
    await altField.fill('');
    await expect(altField).toHaveAccessibleDescription(/No alt text/);
    await shoot(page, `8-upload-${name}`);
    await titleField.fill(`Gauge R&R study ${name} ${stamp}`);
    await altField.fill('A dial gauge on a granite plate');
    await expect(altField).not.toHaveAccessibleDescription(/No alt text/);
    await upload.getByRole('button', { name: 'Upload' }).click();
    await expect(dialog.getByText('Image uploaded.')).toBeVisible();
    const listed = await apiJson<{ images: { id: number; title: string; alt: string }[] }>(admin.request, '/api/news/images');
    const stored = listed.images.find((image) => image.title === `Gauge R&R study ${name} ${stamp}`);
    expect(stored?.alt).toBe('A dial gauge on a granite plate');
    const removed = await admin.request.delete(`/api/news/images/${stored!.id}`, { data: { force: 1 }, headers: await clientHeaders(admin.request) });
    expect(removed.status(), await removed.text()).toBe(200);
  }
});
