// The site as readers, users and the admin meet it behind nginx with TRUST_PROXY=true (issue 15, item 5):
// pages come from disk through nginx with no script blocked by their policy, a login and a download go
// through to Node, and an admin's save republishes and nginx then serves the new build, and for a while the
// replaced build's hashed files too.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN } from '../e2e/env.ts';
import { publishStatus, waitForBuildAfter } from '../e2e/content-admin-support.ts';
import { NODE_ORIGIN } from './env.ts';

test.describe.configure({ mode: 'serial', timeout: 150_000 });

/** Every Content-Security-Policy violation the page reports (an island whose script the policy blocks). */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

async function clientHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const xsrf = (await request.storageState()).cookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.value ?? '';
  return { 'X-XSRF-TOKEN': decodeURIComponent(xsrf), 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' };
}

/** The nav bar's Login button and the Login Form modal, bot check included, as a person signs in. */
async function loginThroughUi(page: Page): Promise<void> {
  await page.goto('/downloads');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Login Form' });
  await dialog.getByLabel('Email', { exact: true }).fill(E2E_ADMIN.email);
  await dialog.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
  await dialog.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(/\/admin$/);
}

test('reader pages come from nginx, compressed, and every island runs under its policy', async ({ page }) => {
  const violations = await watchViolations(page);
  // Every file a page loads (scripts, styles, fonts, images) must be readable by nginx's user.
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  // A post, found on the news page (read without the browser, so its first visit below is a fresh load).
  const post = /href="(\/news\/[^"/]+\/?)"/.exec(await (await page.request.get('/news/')).text())?.[1];
  expect(post).toBeTruthy();
  for (const path of ['/', '/news/', post!, '/documentation/', '/contact/', '/downloads']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    const headers = await response!.allHeaders();
    expect(headers['x-served-by'], path).toBe('nginx');
    expect(headers['content-encoding'], path).toBe('br');
    expect(headers['content-security-policy'], path).toContain("default-src 'self'");
    await page.waitForLoadState('networkidle');
    expect(await violations(), path).toEqual([]);
  }
  // The contact form is an island: it renders its fields only once its script ran.
  await page.goto('/contact/');
  await expect(page.getByRole('button', { name: /send/i })).toBeVisible();
  expect(await violations()).toEqual([]);
  expect(failed).toEqual([]);
});

test('an admin logs in through the page, uploads a release and downloads exactly its bytes, all through nginx', async ({ page }) => {
  await loginThroughUi(page);
  const adminPage = await page.request.get('/admin');
  expect(adminPage.headers()['x-served-by']).toBe('nginx');
  const me = await page.request.get('/api/user', { headers: await clientHeaders(page.request) });
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { user: { email: string } }).user.email).toBe(E2E_ADMIN.email);

  const bytes = crypto.randomBytes(2 * 1024 * 1024 + 17);
  const filename = `front-${Date.now()}.bin`;
  const store = await page.request.post('/api/downloads/store', {
    headers: await clientHeaders(page.request),
    multipart: {
      title: `Front release ${Date.now()}`,
      release: '1.0.0',
      downloadable: '1',
      file: { name: filename, mimeType: 'application/octet-stream', buffer: bytes },
    },
  });
  expect(store.status(), await store.text()).toBe(201);
  const { release } = (await store.json()) as { release: { id: number } };

  const download = await page.request.get(`/api/downloads/file/${release.id}`);
  expect(download.status(), await download.text()).toBe(200);
  expect(download.headers()['content-disposition']).toContain(filename);
  expect((await download.body()).equals(bytes)).toBe(true);
});

test('an admin save republishes and nginx serves the page from the new build', async ({ page }) => {
  await loginThroughUi(page);
  const request = page.request;
  const headers = await clientHeaders(request);
  const before = await request.get('/', { headers: { 'Accept-Encoding': 'br' } });
  const beforeEtag = before.headers().etag;
  const previous = (await publishStatus(request, headers)).last_success?.build_id;

  const sections = (await (await request.get('/api/home/getSections')).json()) as { sections: { id: number; body: string; order: number }[] };
  const first = sections.sections[0]!;
  const newTitle = `Served by the front ${Date.now()}`;
  const update = await request.put('/api/home/update', { data: { id: first.id, title: newTitle, body: first.body, order: first.order }, headers });
  expect(update.status(), await update.text()).toBe(200);
  await waitForBuildAfter(request, headers, previous);

  const response = await page.goto('/');
  const after = await response!.allHeaders();
  expect(after['x-served-by']).toBe('nginx');
  expect(after.etag).not.toBe(beforeEtag);
  await expect(page.getByRole('heading', { name: newTitle })).toBeVisible();
});

/** The search index chunks of the live build, by name, read from disk as nginx serves them. */
function indexChunks(): Map<string, Buffer> {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '', 'builds', 'current', 'pagefind', 'index');
  return new Map(
    fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.pf_index'))
      .map((name) => [name, fs.readFileSync(path.join(dir, name))]),
  );
}

// A search page that read the index's entry before a publish fetches its chunks after: nginx answers the
// replaced build's from builds/previous (Pagefind would skip a missing chunk and find nothing).
test("after a publish changes the search index, nginx still answers the replaced index's chunks", async ({ page }) => {
  await loginThroughUi(page);
  const request = page.request;
  const headers = await clientHeaders(request);
  const previous = (await publishStatus(request, headers)).last_success?.build_id;
  const before = indexChunks();

  const answer = (await (await request.get('/api/news/getposts', { headers })).json()) as {
    sections: { id: number; posts: { id: number; title: string }[] }[];
  };
  const title = `Interferometry ${Date.now()}`;
  const created = await request.post('/api/news/store', {
    data: { title, body: 'Zygometric quasicrystal heterodyne words no other page holds.', section_id: answer.sections[0]!.id, published: 1 },
    headers,
  });
  expect(created.status(), await created.text()).toBe(201);
  const { post } = (await created.json()) as { post: { id: number; section_id: number } };
  try {
    await waitForBuildAfter(request, headers, previous, { search: true });
    const after = indexChunks();
    const replaced = [...before].filter(([name]) => !after.has(name));
    expect(replaced.length).toBeGreaterThan(0);
    for (const [name, bytes] of replaced) {
      const response = await request.get(`/pagefind/index/${name}`, { headers: { 'Accept-Encoding': 'identity' }, maxRedirects: 0 });
      expect(response.status(), name).toBe(200);
      expect(response.headers()['x-served-by']).toBe('nginx');
      expect(response.headers()['cache-control']).toBe('no-cache');
      expect((await response.body()).equals(bytes)).toBe(true);
    }
    // A chunk neither build has still reaches Node, which answers as it does without nginx.
    const unknown = '/pagefind/index/en_0000000.pf_index';
    const viaNginx = await request.get(unknown, { maxRedirects: 0 });
    expect(viaNginx.status()).not.toBe(200);
    expect(viaNginx.status()).toBe((await request.get(`${NODE_ORIGIN}${unknown}`, { maxRedirects: 0 })).status());
  } finally {
    const beforeDelete = (await publishStatus(request, headers)).last_success?.build_id;
    expect((await request.delete('/api/news/delete', { data: { id: post.id, section_id: post.section_id }, headers })).status()).toBe(200);
    // The next spec compares nginx's files with Node's: it must not run while this deletion publishes.
    await waitForBuildAfter(request, headers, beforeDelete, { search: true });
  }
});
