// The walkthrough's defects on the content pages (issue 28, section 2), each with a test that failed before
// its fix, at 1280 and 390 px: after an in-place edit is live, the admin's page shows the post's and the
// section's titles as a fresh load of it does (2.11); the publish toast never covers the footer's links
// (2.17); search excerpts show a formula readably while the formula is still found by its TeX (2.12), also
// on a search page opened before a publish changed the index.
// Screenshots go to test-results/ beside the test's output.
import { expect, test, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN } from './env.ts';
import { clientHeaders, logInContext, publishStatus, waitForBuildAfter, waitForLive } from './content-admin-support.ts';

test.describe.configure({ timeout: 240_000 });

const stamp = Date.now().toString(36);
const VIEWPORTS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`) });
}

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function deletePostsTitled(request: APIRequestContext, titles: readonly string[]): Promise<void> {
  const answer = (await (await request.get('/api/news/getposts', { headers: await clientHeaders(request) })).json()) as
    { sections: { posts: { id: number; title: string; section_id: number }[] }[] } | { posts: { id: number; title: string; section_id: number }[] }[];
  const sections = Array.isArray(answer) ? answer : answer.sections;
  for (const post of sections.flatMap((section) => section.posts).filter((entry) => titles.includes(entry.title))) {
    const response = await request.delete('/api/news/delete', { data: { id: post.id, section_id: post.section_id }, headers: await clientHeaders(request) });
    expect(response.status(), await response.text()).toBe(200);
  }
}

/** What the sidebar and the heading say: the section links, the post links and their targets. */
async function pageTitles(page: Page): Promise<{ heading: string; sections: string[]; posts: string[]; targets: (string | null)[] }> {
  const sidebar = page.locator('[data-posts-sidebar]');
  const postLinks = sidebar.locator('ul.post-list:visible a[data-post-link]');
  return {
    heading: (await page.locator('.posts-heading').textContent()) ?? '',
    sections: await sidebar.locator('ul.section-list > li > a').allTextContents(),
    posts: await postLinks.allTextContents(),
    targets: await postLinks.evaluateAll((links) => links.map((link) => link.getAttribute('href'))),
  };
}

/** 2.17: with the toast floating at the bottom of the page, it lies clear of every footer link. */
async function expectFooterLinksClear(page: Page, toast: Locator): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(toast).toHaveClass(/publish-state--floating/);
  const links = await page.locator('.site-footer a').all();
  expect(links.length).toBeGreaterThan(0);
  // The toast lets clicks through while it only informs (pointer-events: none), so elementFromPoint alone
  // would find a covered link too: the boxes must not meet, and the link must be what is on top there.
  await expect
    .poll(async () => {
      const toastBox = await toast.boundingBox();
      if (!toastBox) return 'no toast';
      for (const link of links) {
        const box = await link.boundingBox();
        if (!box) return 'a link without a box';
        if (overlaps(toastBox, box)) return `the toast covers ${await link.textContent()}`;
        const onTop = await link.evaluate((element) => {
          const rect = element.getBoundingClientRect();
          const hit = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
          return hit !== null && element.contains(hit);
        });
        if (!onTop) return `${await link.textContent()} is not on top at its centre`;
      }
      return 'clear';
    })
    .toBe('clear');
}

for (const { name, viewport } of VIEWPORTS) {
  test(`2.11 and 2.17: after an in-place title edit is live the page reads as a fresh load; the toast leaves the footer clear (${name})`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport });
    await logInContext(context, E2E_ADMIN);
    const first = `Straight quotes ${name} ${stamp}`;
    const edited = `The "new" importer's notes -- ${name} ${stamp}`;
    try {
      const page = await context.newPage();
      await page.goto('/news/product-updates');
      const tools = page.getByRole('region', { name: 'Manage News' });
      await tools.getByRole('button', { name: 'Add Post' }).click();
      const form = page.locator('[data-post-form]');
      await form.getByLabel('Title').fill(first);
      await form.getByLabel('Body', { exact: true }).fill('A post whose title is edited in place.');
      await form.getByLabel('Published').check();
      await form.getByRole('button', { name: 'Save post' }).click();
      await waitForLive(page);

      // The post is on the static page now; edit its title in place there.
      await page.goto('/news/product-updates');
      await page.getByRole('button', { name: `Edit ${first}` }).click();
      await form.getByLabel('Title').fill(edited);
      await form.getByRole('button', { name: 'Update post' }).click();
      const toast = page.locator('[data-publish-state]');
      await expect(toast).toHaveAttribute('data-publish-state', /publishing|live/);
      await expectFooterLinksClear(page, toast);
      await shoot(page, `2.17-toast-over-footer-${name}`);
      await waitForLive(page);
      await expectFooterLinksClear(page, toast);

      const typographic = `The “new” importer’s notes – ${name} ${stamp}`;
      await expect(page.locator('[data-posts-sidebar] a[data-post-link]', { hasText: typographic })).toHaveCount(1);
      const inPlace = await pageTitles(page);
      await page.locator('[data-posts-sidebar]').scrollIntoViewIfNeeded();
      await shoot(page, `2.11-sidebar-after-live-${name}`);

      // A reader's fresh load of the page just published.
      const reader = await browser.newPage({ viewport });
      await reader.goto('/news/product-updates');
      const fresh = await pageTitles(reader);
      await reader.close();
      expect(fresh.posts).toContain(typographic);
      expect(inPlace).toEqual(fresh);
    } finally {
      await deletePostsTitled(context.request, [first, edited]);
      await context.close();
    }
  });

  test(`2.12: a formula is found by its TeX and its excerpt shows it readably, without TeX commands (${name})`, async ({ browser }) => {
    const page = await (browser as Browser).newPage({ viewport });
    try {
      await page.goto('/search?q=sqrt');
      const result = page.locator('.search-result', { hasText: 'Tolerance formulas' });
      await expect(result).toHaveCount(1);
      const excerpts = await result.locator('.search-result__excerpt').allTextContents();
      expect(excerpts.join(' ')).toContain('√');
      for (const excerpt of excerpts) expect(excerpt).not.toMatch(/\\[a-zA-Z]+|[{}]/);
      // The marker characters the index brackets the TeX with are not shown either.
      for (const excerpt of excerpts) expect(excerpt).not.toMatch(/[\u2063\u2064]/);
      await shoot(page, `2.12-formula-excerpt-${name}`);
    } finally {
      await page.close();
    }
  });
}

// Found by CI: a search page that read the index's entry just before a publish went live asked for index
// chunks the new build no longer had, and Pagefind skips those without a word: "sqrt" found nothing.
test('2.12 across a publish: a search page opened before the index changed still finds what it started reading', async ({ browser }) => {
  const reader = await browser.newPage({ viewport: VIEWPORTS[0].viewport });
  const context = await browser.newContext();
  const title = `Square roots ${stamp}`;
  try {
    // Arriving with nothing to search for focuses the field, which loads the engine: the entry and its metadata.
    const metadata = reader.waitForResponse((response) => /\/pagefind\/pagefind\.[^/]+\.pf_meta$/.test(new URL(response.url()).pathname));
    await reader.goto('/search');
    expect((await metadata).status()).toBe(200);

    // A post that uses the word changes the index chunk that holds it.
    const headers = await logInContext(context, E2E_ADMIN);
    const before = (await publishStatus(context.request, headers)).last_success?.build_id;
    const answer = (await (await context.request.get('/api/news/getposts', { headers })).json()) as { sections: { id: number }[] };
    const section = answer.sections[0];
    expect(section).toBeDefined();
    const created = await context.request.post('/api/news/store', {
      data: { title, body: 'The sqrt of a variance is its standard deviation.', section_id: section!.id, published: 1 },
      headers,
    });
    expect(created.status(), await created.text()).toBe(201);
    await waitForBuildAfter(context.request, headers, before, { search: true });

    await reader.locator('[data-search-input]').fill('sqrt');
    await expect(reader.locator('.search-result', { hasText: 'Tolerance formulas' })).toHaveCount(1);
  } finally {
    await deletePostsTitled(context.request, [title]);
    await context.close();
    await reader.close();
  }
});
