// The public site as a reader meets it (issue 4): the home slideshow, the posts screens' hash, scroll
// and scroll-spy rules, corrections of unknown sections and hashes, in-place navigation, search, the
// 600 px layout, relative times, the feeds and sitemap on the running product, and the JavaScript
// budget of an anonymous reader's news page. Content is the seeded demo content (server/demo/demo-content.ts).
import { expect, test, type Page } from '@playwright/test';
import { measureScriptBytes } from '../../scripts/js-bytes.ts';
import { SLIDESHOW_TIMING } from '../../src/lib/reading-constants.ts';

const JS_BUDGET_GZIP_BYTES = 30 * 1024;

/** Fake timers that move only when the test says so (an installed clock otherwise ticks in real time). */
async function stopTime(page: Page): Promise<void> {
  await page.clock.install({ time: new Date('2026-06-01T10:00:00Z') });
  await page.clock.pauseAt(new Date('2026-06-01T10:00:01Z'));
}

/** The slideshow of the first home section and the index of its visible image. */
async function shownImage(page: Page): Promise<number> {
  return page
    .locator('[data-slideshow]')
    .first()
    .locator('.home-figures__item')
    .evaluateAll((items) => items.findIndex((item) => item.hasAttribute('data-active')));
}

test.describe('home', () => {
  test('renders the sections and the slideshow advances with the timing of docs/product/constants.md', async ({ page }) => {
    await stopTime(page);
    await page.goto('/');
    await expect(page.locator('.home-section')).toHaveCount(3);
    await expect(page.locator('.home-section h1')).toHaveCount(1);
    await expect(page.getByRole('link', { name: 'Documentation', exact: true }).nth(1)).toBeVisible();

    const show = page.locator('[data-slideshow]').first();
    await expect(show).toHaveAttribute('data-enhanced', '');
    await expect(show).toHaveAttribute('aria-roledescription', 'carousel');
    const images = show.locator('img');
    await expect(images).toHaveCount(3);
    // Seen as "1 / 3", read as "Image 1 of 3".
    await expect(show.locator('.slideshow__status .sr-only')).toHaveText('Image 1 of 3');
    await expect(show.locator('.slideshow__status [aria-hidden="true"]')).toHaveText('1 / 3');
    expect(await shownImage(page)).toBe(0);
    // The next images are not downloaded before their turn.
    expect(await images.nth(1).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(false);

    // 3 s after the first shows, the second loads; after the 0.5 s gap it shows.
    await page.clock.runFor(SLIDESHOW_TIMING.nextLoadDelayMs + 50);
    await expect.poll(() => images.nth(1).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await shownImage(page)).toBe(-1); // the gap: nothing shown
    await page.clock.runFor(SLIDESHOW_TIMING.gapMs);
    await expect.poll(() => shownImage(page)).toBe(1);

    // The third one the same way; then the show cycles with 5 s per image.
    await page.clock.runFor(SLIDESHOW_TIMING.nextLoadDelayMs + 50);
    await expect.poll(() => images.nth(2).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await page.clock.runFor(SLIDESHOW_TIMING.gapMs);
    await expect.poll(() => shownImage(page)).toBe(2);
    await page.clock.runFor(SLIDESHOW_TIMING.nextLoadDelayMs + SLIDESHOW_TIMING.gapMs + 100);
    expect(await shownImage(page)).toBe(2); // all loaded: now it stays 5 s
    await page.clock.runFor(SLIDESHOW_TIMING.displayMs - SLIDESHOW_TIMING.nextLoadDelayMs);
    await expect.poll(() => shownImage(page)).toBe(0);

    // Manual controls and the pause button (WCAG 2.2.2).
    await show.getByRole('button', { name: 'Next image' }).click();
    expect(await shownImage(page)).toBe(1);
    await show.getByRole('button', { name: 'Previous image' }).click();
    expect(await shownImage(page)).toBe(0);
    await show.getByRole('button', { name: 'Pause slideshow' }).click();
    await expect(show.getByRole('button', { name: 'Play slideshow' })).toBeVisible();
    await page.mouse.move(0, 0);
    await page.clock.runFor(3 * SLIDESHOW_TIMING.displayMs);
    expect(await shownImage(page)).toBe(0);
  });

  test('with reduced motion the slideshow waits for the reader', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await stopTime(page);
    await page.goto('/');
    const show = page.locator('[data-slideshow]').first();
    await expect(show.getByRole('button', { name: 'Play slideshow' })).toBeVisible();
    await page.clock.runFor(4 * SLIDESHOW_TIMING.displayMs);
    expect(await shownImage(page)).toBe(0);
    await show.getByRole('button', { name: 'Next image' }).click();
    expect(await shownImage(page)).toBe(1);
  });

  test('a broken image falls back to the not-found placeholder', async ({ page }) => {
    await page.route(/\/media\/home\//, (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto('/');
    const first = page.locator('[data-slideshow]').first().locator('img').first();
    await expect(first).toHaveAttribute('src', '/not-found.svg');
    await expect(first).toHaveAttribute('alt', /^Image not available/);
    expect(await first.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  });
});

test.describe('posts screens', () => {
  test('a missing hash becomes the first post, the page stays at the top, times are relative', async ({ page }) => {
    await page.goto('/news');
    await expect(page).toHaveURL(/\/news#version-3-2-released$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Company News' })).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const time = page.locator('time[data-relative-time]').first();
    await expect(time).toHaveText(/^(now|\d+ (second|minute|hour|day|week|month|year)s? ago)$/);
    await expect(time).toHaveAttribute('title', /\d{4}/);
    await expect(time).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  });

  test('clicking a post scrolls to it 100 px below the top, then sets the hash; scrolling follows the article', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 500 });
    await page.goto('/documentation/getting-started');
    await expect(page).toHaveURL(/#installation$/);
    const historyBefore = await page.evaluate(() => history.length);

    const link = page.getByRole('navigation', { name: 'Documentation sections' }).getByRole('link', { name: 'First measurement' });
    await link.click();
    // Mid-way the hash has not changed yet: it follows the scroll.
    await page.waitForTimeout(150);
    expect(page.url()).toMatch(/#installation$/);
    await expect(page).toHaveURL(/#first-measurement$/);
    const top = await page.locator('#first-measurement').evaluate((article) => article.getBoundingClientRect().top);
    expect(Math.abs(top - 100)).toBeLessThanOrEqual(2);
    await expect(link).toHaveAttribute('aria-current', 'location');
    await expect(page.locator('#first-measurement')).toBeFocused();
    // A click is a history entry, like any link.
    expect(await page.evaluate(() => history.length)).toBe(historyBefore + 1);

    // Scroll-spy: back at the top, the address names the first post again, without new history entries.
    await page.mouse.move(800, 300);
    await page.mouse.wheel(0, -5000);
    await expect(page).toHaveURL(/#installation$/);
    expect(await page.evaluate(() => history.length)).toBe(historyBefore + 1);
    await expect(page.getByRole('navigation', { name: 'Documentation sections' }).getByRole('link', { name: 'Installation' })).toHaveAttribute(
      'aria-current',
      'location',
    );
  });

  test('the sidebar lists the posts in the order of the articles, news and documentation alike (issue 28, 2.10)', async ({ page }) => {
    await page.goto('/news/company-news');
    await expect(page.locator('[data-posts-sidebar] [data-post-link]')).toHaveText(['Version 3.2 released', 'Meet us at the metrology fair']);
    await expect(page.locator('article.post h2')).toHaveText(['Version 3.2 released', 'Meet us at the metrology fair']);
    await page.goto('/tutorials/basics');
    await expect(page.locator('[data-posts-sidebar] [data-post-link]')).toHaveText(['Aligning a scan to CAD', 'Colour deviation maps']);
  });

  test('an unknown section slug goes to the first section, an unknown hash to the first post', async ({ page }) => {
    await page.goto('/news/no-such-section');
    await expect(page).toHaveURL(/\/news#version-3-2-released$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Company News' })).toBeVisible();

    await page.goto('/documentation/reference#no-such-post');
    await expect(page).toHaveURL(/\/documentation\/reference#tolerance-formulas$/);
    // A post's title anchor (what search results link to) names the post.
    await page.goto('/tutorials/basics#colour-deviation-maps-title');
    await expect(page).toHaveURL(/\/tutorials\/basics#colour-deviation-maps$/);
  });

  test('formulas are laid out by the KaTeX stylesheet the page loads: line boxes sized by their struts, scripts smaller than their base', async ({ page }) => {
    // docs/decisions/0068-math-without-reparse.md: HTML from another KaTeX than the stylesheet's left every
    // formula's boxes unstyled (superscripts and limits at full size, subscripts on the baseline).
    await page.goto('/documentation/reference');
    const formula = page.locator('article#tolerance-formulas .katex-display .katex-html').first();
    await expect(formula).toBeVisible();
    const layout = await formula.evaluate((root) => {
      const fontSize = (element: Element | null) => (element ? parseFloat(getComputedStyle(element).fontSize) : Number.NaN);
      const strut = root.firstElementChild?.firstElementChild ?? null;
      return {
        strut: strut ? getComputedStyle(strut).display : 'none',
        base: fontSize(root.querySelector('.mord.mathnormal')), // the T of T_RSS
        script: fontSize(root.querySelector('.msupsub .mord')), // its subscript
      };
    });
    expect(layout.strut).toBe('inline-block');
    expect(layout.script).toBeLessThan(layout.base * 0.8);
  });

  test('internal links swap the page in place; a section link goes to its first post at the top', async ({ page }) => {
    await page.goto('/news/company-news');
    await page.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));
    const stillSamePage = () => page.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce === true);

    await page.getByRole('navigation', { name: 'News sections' }).getByRole('link', { name: 'Product Updates' }).click();
    await expect(page).toHaveURL(/\/news\/product-updates#improved-point-cloud-import$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Product Updates' })).toBeVisible();
    await expect(page).toHaveTitle(/News: Product Updates$/);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await stillSamePage()).toBe(true);

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Tutorials', exact: true }).click();
    await expect(page).toHaveURL(/\/tutorials#aligning-a-scan-to-cad$/);
    await expect(nav.getByRole('link', { name: 'Tutorials', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'News', exact: true })).not.toHaveAttribute('aria-current', 'page');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/tutorials\/basics$/);
    expect(await stillSamePage()).toBe(true);

    // The reader behaviour works on a swapped-in page too.
    await page.getByRole('navigation', { name: 'Tutorials sections' }).getByRole('link', { name: 'Colour deviation maps' }).click();
    await expect(page).toHaveURL(/#colour-deviation-maps$/);

    await page.goBack();
    await expect(page).toHaveURL(/#aligning-a-scan-to-cad$/);
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: 'Product Updates' })).toBeVisible();
    expect(await stillSamePage()).toBe(true);

    // Pages with islands load normally.
    await nav.getByRole('link', { name: 'Contact Us' }).click();
    await expect(page).toHaveURL(/\/contact$/);
    expect(await stillSamePage()).toBe(false);
  });
});

test.describe('search', () => {
  test('finds a word that appears in one tutorial only, from the nav bar, and filters by namespace', async ({ page }) => {
    await page.goto('/');
    const box = page.getByRole('searchbox', { name: 'Search the site' });
    await box.focus();
    await box.fill('zeppelin-shaped');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/search\?q=zeppelin-shaped$/);
    await expect(page.getByRole('status')).toHaveText('1 result for “zeppelin-shaped”.');
    const results = page.locator('.search-result');
    await expect(results).toHaveCount(1);
    await expect(results.getByRole('heading')).toHaveText('Tutorials – Basics');
    await expect(results.locator('mark').first()).toHaveText(/zeppelin/i);

    await page.getByRole('radio', { name: 'News' }).check();
    await expect(page.getByRole('status')).toHaveText('No results for “zeppelin-shaped” in News.');
    await expect(page).toHaveURL(/q=zeppelin-shaped&ns=news$/);
    await page.getByRole('radio', { name: 'Tutorials' }).check();
    await expect(results).toHaveCount(1);

    await results.getByRole('link', { name: 'Aligning a scan to CAD' }).click();
    await expect(page).toHaveURL(/\/tutorials\/basics#aligning-a-scan-to-cad$/);
    await expect(page.locator('#aligning-a-scan-to-cad')).toBeInViewport();
  });

  test('says the index is still being made while a new site has none, and searches once it is there', async ({ page }) => {
    // A server's first build goes live a few seconds before its index (docs/decisions/0058-first-build-search-after-live.md).
    await page.route('**/pagefind/**', (route) => route.fulfill({ status: 404, body: 'Not found' }));
    await page.goto('/search?q=zeppelin-shaped');
    await expect(page.getByRole('status')).toHaveText(
      'The search index is still being made: a new site indexes its pages just after they go live. Please try again in a few seconds.',
    );
    // Any other failure (here the network) is not that.
    await page.unroute('**/pagefind/**');
    await page.route('**/pagefind/**', (route) => route.abort());
    await page.locator('[data-search-form]').getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('status')).toHaveText('Search is not available right now. Please try again later.');
    // The index is there now: the next search loads it.
    await page.unroute('**/pagefind/**');
    await page.locator('[data-search-form]').getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('status')).toHaveText('1 result for “zeppelin-shaped”.');
  });

  test('the search page works from its address, and words found everywhere are filterable', async ({ page }) => {
    await page.goto('/search?q=markdown&ns=documentation');
    await expect(page.getByRole('radio', { name: 'Documentation' })).toBeChecked();
    await expect(page.locator('.search-result')).toHaveCount(1);
    await expect(page.locator('.search-result__where')).toHaveText('Documentation');
  });
});

test.describe('at 600 px', () => {
  test.use({ viewport: { width: 600, height: 900 } });

  for (const path of ['/', '/news/company-news', '/documentation/getting-started', '/search?q=measurement']) {
    test(`${path} fits the width`, async ({ page }) => {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(600);
    });
  }

  test('the menu holds the search box; sidebar clicks still scroll', async ({ page }) => {
    await page.goto('/news/company-news');
    await page.getByRole('button', { name: /menu/i }).click();
    const box = page.getByRole('searchbox', { name: 'Search the site' });
    await expect(box).toBeVisible();
    await box.fill('metrology');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/search\?q=metrology$/);
    await expect(page.locator('.search-result').first()).toBeVisible();

    await page.goto('/news/company-news');
    await page.getByRole('navigation', { name: 'News sections' }).getByRole('link', { name: 'Meet us at the metrology fair' }).click();
    await expect(page).toHaveURL(/#meet-us-at-the-metrology-fair$/);
  });
});

test.describe('at 320 px', () => {
  test.use({ viewport: { width: 320, height: 700 } });

  test('wide code scrolls inside its own box and can be focused to scroll with the keyboard', async ({ page }) => {
    await page.goto('/tutorials/advanced');
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    const code = page.locator('.prose pre').first();
    expect(await code.evaluate((pre) => pre.scrollWidth > pre.clientWidth)).toBe(true);
    await expect(code).toHaveAttribute('tabindex', '0');
  });
});

test('feeds, sitemap and robots.txt are served', async ({ request }) => {
  const rss = await request.get('/news/rss.xml');
  expect(rss.status()).toBe(200);
  expect(rss.headers()['content-type']).toContain('xml');
  expect(await rss.text()).toContain('<title>Version 3.2 released</title>');
  const section = await request.get('/tutorials/basics/rss.xml');
  expect(await section.text()).toContain('<title>Aligning a scan to CAD</title>');
  const json = (await (await request.get('/news/feed.json')).json()) as { items: { title: string }[] };
  expect(json.items.map((item) => item.title)).toContain('Meet us at the metrology fair');
  const sitemap = await (await request.get('/sitemap.xml')).text();
  expect(sitemap).toMatch(
    /<loc>http:\/\/localhost:\d+\/tutorials\/basics#aligning-a-scan-to-cad<\/loc><lastmod>\d{4}-\d\d-\d\d<\/lastmod><priority>0\.6<\/priority>/,
  );
  expect(sitemap).not.toContain('roadmap-for-next-year');
  expect(await (await request.get('/robots.txt')).text()).toMatch(/Sitemap: http:\/\/localhost:\d+\/sitemap\.xml/);
});

test('an anonymous reader of a news page downloads at most 30 KB of gzipped JavaScript', async ({ page }, testInfo) => {
  const { total, files } = await measureScriptBytes(page, '/news/company-news');
  await expect(page.locator('time[data-relative-time]').first()).toHaveText(/ago|now/);
  const report = [...files].map(([path, size]) => `${path} ${size} B`).join('\n');
  testInfo.annotations.push({ type: 'js-gzip-bytes', description: `${total} B on /news/company-news\n${report}` });
  console.log(`JavaScript on /news/company-news: ${total} B gzipped in ${files.size} files\n${report}`);
  expect(files.size).toBeGreaterThan(0);
  expect(total).toBeLessThanOrEqual(JS_BUDGET_GZIP_BYTES);
});
