// Content administration in place (issue 5, "Tests that must exist", browser): an admin creates a section,
// writes a post with the markdown toolbar and an uploaded image inserted into the text, saves it
// unpublished (readers do not see it after the publish), publishes it (readers see it after the publish),
// attaches a file that a verified reader downloads, edits and deletes the post; edits a home section and
// its images. Readers of a posts page never download the admin code. The tests run in order on one
// admin session; each cleans up what later spec files would notice (they expect the demo content).
import fs from 'node:fs';
import { expect, test, type Browser, type BrowserContext, type Page, type Request } from '@playwright/test';
import { E2E_ADMIN, E2E_S3_BUCKET, E2E_S3_PORT, E2E_STORAGE } from './env.ts';
import { PASSWORD, uniqueEmail } from './accounts-support.ts';
import { clientHeaders, createVerifiedReader, logInContext, makePng, waitForLive } from './content-admin-support.ts';
import { slugify } from '../../common/slugify.ts';

// Several tests wait for publishes (real astro builds), slower while other builds share the machine.
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const stamp = Date.now();
const SECTION = { title: `Probe Techniques ${stamp}`, order: '50' };
const POST = { title: `Calibrating the probe ${stamp}`, alt: 'Probe on a gauge block' };
const FILE = {
  name: `probe-notes-${stamp}.txt`,
  description: 'Probe checklist',
  bytes: Buffer.from(`Probe checklist ${stamp}\n1. Clean the stylus.\n2. Qualify it on the sphere.\n`),
};
/** Chunks only the admin overlay uses (Vite names chunks after their modules). */
const ADMIN_CHUNKS = /\/_astro\/(PostsOverlay|HomeOverlay|content-admin|markdown)\.[\w-]+\.js$/;

let admin: BrowserContext;
let adminPage: Page;

async function anonymousPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

test.beforeAll(async ({ browser }) => {
  admin = await browser.newContext();
  await logInContext(admin, E2E_ADMIN);
  adminPage = await admin.newPage();
});

test.afterAll(async () => {
  await admin?.close();
});

test('an anonymous reader of a posts page downloads none of the admin code; an admin gets it', async ({ page }) => {
  const anonymousScripts: string[] = [];
  page.on('request', (request: Request) => {
    if (request.resourceType() === 'script') anonymousScripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/tutorials');
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  expect(anonymousScripts.length).toBeGreaterThan(0);
  expect(anonymousScripts.filter((path) => ADMIN_CHUNKS.test(path))).toEqual([]);
  await expect(page.getByRole('region', { name: 'Manage Tutorials' })).toHaveCount(0);
  await expect(page.getByText('PUBLISHED', { exact: true })).toHaveCount(0);

  // The same page for the admin loads the overlay's chunk (so the pattern above names real files).
  const adminScripts: string[] = [];
  adminPage.on('request', (request: Request) => {
    if (request.resourceType() === 'script') adminScripts.push(new URL(request.url()).pathname);
  });
  await adminPage.goto('/tutorials');
  await expect(adminPage.getByRole('region', { name: 'Manage Tutorials' })).toBeVisible();
  expect(adminScripts.some((path) => /\/_astro\/PostsOverlay\./.test(path))).toBe(true);
});

test('an admin creates a section and writes a post with the toolbar, an uploaded image and a file; unpublished it stays off the static page', async ({
  browser,
}) => {
  const page = adminPage;
  await page.goto('/tutorials');
  const tools = page.getByRole('region', { name: 'Manage Tutorials' });
  await expect(tools).toBeVisible();

  // The section panel (docs/product/reading.md#posts-screens), titled as the spec has it on the tutorials screen.
  await tools.getByRole('button', { name: 'Add Section' }).click();
  const panel = page.getByRole('dialog', { name: 'Add/edit/delete Tutorial Sections' });
  await expect(panel).toBeVisible();
  await panel.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(panel.getByLabel('Title', { exact: true })).toHaveAccessibleDescription('The title field is required.');
  await panel.getByLabel('Title', { exact: true }).fill(SECTION.title);
  await panel.getByLabel('Order', { exact: true }).fill(SECTION.order);
  await panel.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(panel.getByText('Section created.')).toBeVisible();
  await expect(panel.getByLabel('Section', { exact: true }).locator('option:checked')).toHaveText(`${SECTION.title} - order: ${SECTION.order}`);
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  // Focus goes back to the button that opened the panel.
  await expect(tools.getByRole('button', { name: 'Add Section' })).toBeFocused();

  await tools.getByRole('button', { name: 'Add Post' }).click();
  const form = page.getByRole('region', { name: 'New post' });
  await expect(form.getByLabel('Title', { exact: true })).toBeFocused();
  await form.getByLabel('Section', { exact: true }).selectOption({ label: `${SECTION.title} - order: ${SECTION.order}` });

  // Errors come back per field (docs/product/messages.md#validation), the message as an error notice.
  await form.getByRole('button', { name: 'Save post' }).click();
  await expect(form.getByLabel('Title', { exact: true })).toHaveAccessibleDescription('The title field is required.');
  await expect(form.getByLabel('Title', { exact: true })).toBeFocused();
  await expect(form.getByRole('textbox', { name: 'Body' })).toHaveAccessibleDescription('The body field is required.');
  await expect(form.locator('.form-message__text--error')).toBeVisible();

  await form.getByLabel('Title', { exact: true }).fill(POST.title);
  const body = form.getByRole('textbox', { name: 'Body' });
  await body.fill('Qualify the probe before every run.');
  await body.evaluate((element: HTMLTextAreaElement, word: string) => {
    const start = element.value.indexOf(word);
    element.setSelectionRange(start, start + word.length);
  }, 'every run');
  const toolbar = form.getByRole('toolbar', { name: 'Formatting' });
  await toolbar.getByRole('button', { name: 'Bold' }).click();
  await expect(body).toHaveValue('Qualify the probe before **every run**.');
  // The live preview uses the site's pipeline.
  const preview = form.getByRole('region', { name: 'Body: preview' });
  await expect(preview.locator('strong')).toHaveText('every run');
  // One Tab stop for the toolbar; arrow keys, Home and End move between its buttons.
  await toolbar.getByRole('button', { name: 'H1: heading 1' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(toolbar.getByRole('button', { name: 'H2: heading 2' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(toolbar.getByRole('button', { name: /^Images/ })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(toolbar.getByRole('button', { name: 'H1: heading 1' })).toBeFocused();
  await expect(toolbar.locator('button[tabindex="0"]')).toHaveCount(1);
  // The cursor at the end, then a heading line.
  await body.press('End');
  await body.press('Enter');
  await body.press('Enter');
  await body.pressSequentially('Checklist');
  await toolbar.getByRole('button', { name: 'H3: heading 3' }).click();
  await expect(body).toHaveValue('Qualify the probe before **every run**.\n\n### Checklist');
  await expect(preview.locator('h3')).toHaveText('Checklist');

  // The image manager: its messages, an upload, details, and insertion at the cursor.
  await toolbar.getByRole('button', { name: /^Images/ }).click();
  const images = page.getByRole('dialog', { name: 'Images' });
  await expect(images).toBeVisible();
  await images.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(images.getByText('File not selected')).toBeVisible();
  await images.getByRole('button', { name: 'Insert into text' }).click();
  await expect(images.getByText('Nothing selected!')).toBeVisible();
  await images.getByLabel('Image file').setInputFiles({ name: 'probe.png', mimeType: 'image/png', buffer: await makePng('#2f7d5b') });
  await images.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(images.getByText('Image uploaded.')).toBeVisible();
  const item = images.locator('[data-image-item]').first();
  // The new image is ticked, ready to insert.
  await expect(item.getByRole('checkbox', { name: 'Select probe' })).toBeChecked();
  await item.getByLabel('Alt text').fill(POST.alt);
  await item.getByRole('button', { name: 'Save details of probe' }).click();
  await expect(item.getByText('Image details saved.')).toBeVisible();
  await images.getByRole('button', { name: 'Insert into text' }).click();
  await expect(images).toBeHidden();
  await expect(body).toHaveValue(new RegExp(`### Checklist\\n\\n!\\[${POST.alt}\\]\\(/media/tutorials/[0-9a-f]+-image\\.webp\\)\\n$`));
  await expect(preview.locator(`img[alt="${POST.alt}"]`)).toBeVisible();

  // The files manager: upload with a description, then offer the file with the post.
  await form.getByRole('button', { name: 'Files…' }).click();
  const files = page.getByRole('dialog', { name: 'Files' });
  await files.getByRole('button', { name: 'Delete selected' }).click();
  await expect(files.getByText('Nothing selected!')).toBeVisible();
  await files.getByLabel('File', { exact: true }).setInputFiles({ name: FILE.name, mimeType: 'text/plain', buffer: FILE.bytes });
  await files.getByLabel('Description').fill(FILE.description);
  await files.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(files.getByText('File uploaded.')).toBeVisible();
  await expect(files.getByRole('row', { name: new RegExp(FILE.name) })).toBeVisible();
  await files.getByRole('button', { name: 'Close' }).click();
  await expect(files).toBeHidden();
  await form.getByLabel('File for download').selectOption({ label: `${FILE.name} – ${FILE.description}` });

  await expect(form.getByLabel('Published')).not.toBeChecked();
  await form.getByLabel('Display order').fill('2');
  await form.getByRole('button', { name: 'Save post' }).click();
  await expect(tools.getByText('Post created.')).toBeVisible();

  // The article shows at once, from the API, marked as not published, with the toolbar's markup rendered.
  const article = page.locator('article', { has: page.getByRole('heading', { name: POST.title }) });
  await expect(article).toBeVisible();
  await expect(article.getByText('NOT PUBLISHED')).toBeVisible();
  await expect(article.getByText('Display order: 2')).toBeVisible();
  await expect(article.locator('strong')).toHaveText('every run');
  await expect(article.locator(`img[alt="${POST.alt}"]`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`#${slugify(POST.title)}$`));
  await waitForLive(page);

  // After that publish the section has its page, without the unpublished post.
  const reader = await anonymousPage(browser);
  await reader.goto(`/tutorials/${slugify(SECTION.title)}`);
  await expect(reader.getByRole('heading', { level: 1, name: SECTION.title })).toBeVisible();
  await expect(reader.getByText(POST.title)).toHaveCount(0);
  await expect(reader.getByText('No posts in this section yet.')).toBeVisible();
  await reader.context().close();
});

test('publishing the post brings it to the static page for readers once the publish is live', async ({ browser }) => {
  const page = adminPage;
  await page.goto(`/tutorials/${slugify(SECTION.title)}`);
  const article = page.locator('article', { has: page.getByRole('heading', { name: POST.title }) });
  await expect(article.getByText('NOT PUBLISHED')).toBeVisible();
  await article.getByRole('button', { name: `Edit ${POST.title}` }).click();
  const form = page.getByRole('region', { name: `Edit post: ${POST.title}` });
  await expect(form.getByLabel('Title', { exact: true })).toHaveValue(POST.title);
  await expect(form.getByRole('button', { name: 'New Post' })).toBeVisible();
  await form.getByLabel('Published').check();
  await form.getByRole('button', { name: 'Update post' }).click();
  const tools = page.getByRole('region', { name: 'Manage Tutorials' });
  await expect(tools.getByText('Post updated.')).toBeVisible();
  await expect(article.getByText('PUBLISHED', { exact: true })).toBeVisible();
  await waitForLive(page);

  const reader = await anonymousPage(browser);
  await reader.goto(`/tutorials/${slugify(SECTION.title)}`);
  const published = reader.locator(`article#${slugify(POST.title)}`);
  await expect(published.getByRole('heading', { name: POST.title })).toBeVisible();
  await expect(published.locator('strong')).toHaveText('every run');
  await expect(published.getByRole('heading', { level: 3, name: 'Checklist' })).toBeVisible();
  await expect(published.locator(`img[alt="${POST.alt}"]`)).toHaveAttribute('src', /^\/media\/tutorials\/[0-9a-f]+-image\.webp$/);
  await expect(published.getByText(FILE.name)).toBeVisible();
  await expect(published.getByText('You must be logged in to download tutorial materials')).toBeVisible();
  await expect(published.getByRole('button', { name: /^Download/ })).toHaveCount(0);
  await reader.context().close();
});

test('a verified reader downloads the attached file with its bytes and name', async ({ browser }) => {
  const context = await browser.newContext();
  await createVerifiedReader(context, admin.request, { name: 'Vera Reader', email: uniqueEmail('content-reader'), password: PASSWORD });
  const reader = await context.newPage();
  await reader.goto(`/tutorials/${slugify(SECTION.title)}`);
  const published = reader.locator(`article#${slugify(POST.title)}`);
  await expect(published.getByText('You must be logged in to download tutorial materials')).toBeHidden();
  const [download] = await Promise.all([reader.waitForEvent('download'), published.getByRole('button', { name: `Download ${FILE.name}` }).click()]);
  expect(download.suggestedFilename()).toBe(FILE.name);
  expect(fs.readFileSync(await download.path())).toEqual(FILE.bytes);
  // From the local store the page saves the bytes the site sent; from a bucket the browser fetched the
  // presigned link itself (docs/decisions/0050-object-storage.md).
  if (E2E_STORAGE === 's3')
    expect(download.url()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${E2E_S3_PORT}/${E2E_S3_BUCKET}/private/tutorials/[0-9a-f]{32}\\?X-Amz-Algorithm=`));
  else expect(download.url()).toMatch(/^blob:/);
  await context.close();
});

test('an admin edits the post, is refused deleting its section, deletes the post and then the section', async ({ browser }) => {
  const page = adminPage;
  const newTitle = `${POST.title} (revised)`;
  await page.goto(`/tutorials/${slugify(SECTION.title)}`);
  const tools = page.getByRole('region', { name: 'Manage Tutorials' });
  await page.getByRole('button', { name: `Edit ${POST.title}` }).click();
  const form = page.getByRole('region', { name: `Edit post: ${POST.title}` });
  await form.getByLabel('Title', { exact: true }).fill(newTitle);
  await form.getByRole('button', { name: 'Update post' }).click();
  await expect(tools.getByText('Post updated.')).toBeVisible();
  // The slug (the address readers have) stays; the article shows the new title from the API.
  const article = page.locator(`article#${slugify(POST.title)}`);
  await expect(article.getByRole('heading', { name: newTitle })).toBeVisible();

  // A section that holds posts is not deleted: the refusal, and the offer to move the posts.
  await tools.getByRole('button', { name: 'Add Section' }).click();
  const panel = page.getByRole('dialog', { name: 'Add/edit/delete Tutorial Sections' });
  await panel.getByLabel('Section', { exact: true }).selectOption({ label: `${SECTION.title} - order: ${SECTION.order}` });
  await expect(panel.getByLabel('Title', { exact: true })).toHaveValue(SECTION.title);
  await panel.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirmSection = page.getByRole('dialog', { name: 'Delete section' });
  await expect(confirmSection.getByText('This operation will hard delete data from database!!!')).toBeVisible();
  await confirmSection.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(panel.getByText(/This section still holds 1 post/)).toBeVisible();
  await expect(panel.getByLabel('Move its posts to')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Move posts and delete' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // Delete asks first; Cancel keeps the post.
  await article.getByRole('button', { name: `Delete ${newTitle}` }).click();
  const confirmPost = page.getByRole('dialog', { name: 'Delete post' });
  await expect(confirmPost.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirmPost.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirmPost).toBeHidden();
  await expect(article).toBeVisible();
  await article.getByRole('button', { name: `Delete ${newTitle}` }).click();
  await confirmPost.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(tools.getByText('Post deleted.')).toBeVisible();
  await expect(page.getByRole('heading', { name: newTitle })).toHaveCount(0);
  await expect(tools.getByText('No posts in this section yet.')).toBeVisible();
  await waitForLive(page);

  const reader = await anonymousPage(browser);
  await reader.goto(`/tutorials/${slugify(SECTION.title)}`);
  await expect(reader.getByRole('heading', { level: 1, name: SECTION.title })).toBeVisible();
  await expect(reader.getByText(POST.title)).toHaveCount(0);
  await reader.context().close();

  // Empty now, so the section goes (later spec files expect the demo sections only).
  await tools.getByRole('button', { name: 'Add Section' }).click();
  await panel.getByLabel('Section', { exact: true }).selectOption({ label: `${SECTION.title} - order: ${SECTION.order}` });
  await panel.getByRole('button', { name: 'Delete', exact: true }).click();
  await confirmSection.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(panel.getByText('Section deleted.')).toBeVisible();
  await page.keyboard.press('Escape');
  await waitForLive(page);
});

test('an admin adds and edits a home section and its images, and readers get them after the publish', async ({ browser }) => {
  const page = adminPage;
  const home = { title: `Metrology services ${stamp}`, edited: `Metrology services on site ${stamp}`, alt: `Technician at the CMM ${stamp}` };
  await page.goto('/');
  const tools = page.getByRole('region', { name: 'Manage the home page' });
  const form = tools.getByRole('region', { name: 'New home section' });
  await form.getByLabel('Title', { exact: true }).fill(home.title);
  await form.getByRole('textbox', { name: 'Body' }).fill('We measure ==on site==, too.');
  await form.getByLabel('Order', { exact: true }).fill('1000');
  await form.getByRole('button', { name: 'Add section' }).click();
  await expect(tools.getByText('Section created.')).toBeVisible();
  const section = page.locator('[data-home-section]', { has: page.getByRole('heading', { name: home.title }) });
  await expect(section.locator('mark')).toHaveText('on site');

  // Edit: the form switches to edit mode, errors per field, then the update.
  await section.getByRole('button', { name: `Edit ${home.title}` }).click();
  const edit = tools.getByRole('region', { name: `Edit section: ${home.title}` });
  await expect(edit.getByLabel('Title', { exact: true })).toBeFocused();
  await edit.getByLabel('Title', { exact: true }).fill('');
  await edit.getByRole('button', { name: 'Update section' }).click();
  await expect(edit.getByLabel('Title', { exact: true })).toHaveAccessibleDescription('The title field is required.');
  await expect(edit.getByLabel('Title', { exact: true })).toBeFocused();
  await edit.getByLabel('Title', { exact: true }).fill(home.edited);
  await edit.getByRole('button', { name: 'Update section' }).click();
  await expect(tools.getByText('Section updated.')).toBeVisible();
  const edited = page.locator('[data-home-section]', { has: page.getByRole('heading', { name: home.edited }) });
  await expect(edited).toBeVisible();

  // Its images: upload into the section, edit the alt text, move an image out and back in.
  await edited.getByRole('button', { name: `Images of ${home.edited} (0)` }).click();
  const images = page.getByRole('dialog', { name: 'Home images' });
  await expect(images.getByText('No images here.')).toBeVisible();
  await images.getByLabel('Image file').setInputFiles({ name: `cmm-${stamp}.png`, mimeType: 'image/png', buffer: await makePng('#1d4f91') });
  await expect(images.getByLabel('Assign to')).toHaveValue(await edited.getAttribute('data-home-section').then(String));
  // The title and alt text are asked for at upload, pre-filled from the file's name (issue 14, part 2).
  const uploadTitle = images.locator('form.image-manager__upload').getByLabel('Title', { exact: true });
  await expect(uploadTitle).toHaveValue(`Cmm ${stamp}`);
  await uploadTitle.fill(`cmm-${stamp}`);
  await images.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(images.getByText('Image uploaded.')).toBeVisible();
  const item = images.locator('[data-image-item]');
  await expect(item).toHaveCount(1);
  await item.getByLabel('Alt text').fill(home.alt);
  await item.getByRole('button', { name: `Save details of cmm-${stamp}` }).click();
  await expect(item.getByText('Image details saved.')).toBeVisible();
  await item.getByLabel('Section', { exact: true }).selectOption({ label: 'Not assigned' });
  await expect(images.getByText('Image removed from the section.')).toBeVisible();
  await expect(item).toHaveCount(0);
  await images.getByLabel('Show').selectOption({ label: 'Not assigned' });
  const unassigned = images.locator('[data-image-item]', { has: page.getByRole('checkbox', { name: `Select cmm-${stamp}` }) });
  await unassigned.getByLabel('Section', { exact: true }).selectOption({ label: home.edited });
  await expect(images.getByText('Image assigned to the section.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(images).toBeHidden();
  await expect(edited.getByRole('button', { name: `Images of ${home.edited} (1)` })).toBeVisible();
  await expect(edited.getByRole('list', { name: `Images assigned to ${home.edited}` }).getByRole('img', { name: home.alt })).toBeVisible();
  await waitForLive(page);

  const reader = await anonymousPage(browser);
  await reader.goto('/');
  const readerSection = reader.locator('[data-home-section]', { has: reader.getByRole('heading', { name: home.edited }) });
  await expect(readerSection.locator('mark')).toHaveText('on site');
  await expect(readerSection.getByRole('img', { name: home.alt })).toHaveAttribute('src', /^\/media\/home\/[0-9a-f]+-(lg|thumb)\.webp$/);

  // Clean up (later spec files count the demo sections): delete the image, then the section.
  await edited.getByRole('button', { name: `Images of ${home.edited} (1)` }).click();
  await images
    .locator('[data-image-item]')
    .getByRole('button', { name: `Delete cmm-${stamp}` })
    .click();
  await page.getByRole('dialog', { name: 'Delete images' }).getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(images.getByText('Image deleted.')).toBeVisible();
  await page.keyboard.press('Escape');
  await edited.getByRole('button', { name: `Delete ${home.edited}` }).click();
  await page.getByRole('dialog', { name: 'Delete section' }).getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(tools.getByText('Section deleted.')).toBeVisible();
  await waitForLive(page);
  await reader.reload();
  await expect(reader.getByRole('heading', { name: home.edited })).toHaveCount(0);
  await reader.context().close();

  // The admin's session is still the one the API knows (nothing in the flows logged it out).
  expect((await admin.request.get('/api/user', { headers: await clientHeaders(admin.request) })).status()).toBe(200);
});
