// The JavaScript an anonymous reader downloads with a page, before any interaction: every script
// response until the network is idle (entry modules, their imports, dynamic imports made at load),
// each counted at gzip level 9 (how the server stores it) so the figure does not depend on what the
// browser negotiated. Used by `npm run lighthouse` and the budget test in tests/e2e/reading.spec.ts.
// `measureTransferredScripts` is the other view: the bytes Chromium really received for scripts (as served,
// compressed, response headers included), across the redirects a visit makes; the guarded pages' test
// (tests/e2e/guarded-islands.spec.ts) and the bench use it (docs/decisions/0038-guarded-islands.md).
import zlib from 'node:zlib';
import type { Page, Response } from '@playwright/test';

export interface ScriptBytes {
  /** Sum of the gzipped sizes. */
  total: number;
  /** Path → gzipped size, in load order. */
  files: Map<string, number>;
}

export async function measureScriptBytes(page: Page, url: string): Promise<ScriptBytes> {
  const files = new Map<string, number>();
  const pending: Promise<void>[] = [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() !== 'script') return;
    pending.push(
      response
        .body()
        .then((body) => void files.set(new URL(response.url()).pathname, zlib.gzipSync(body, { level: 9 }).length))
        .catch(() => undefined),
    );
  };
  page.on('response', onResponse);
  try {
    await page.goto(url, { waitUntil: 'networkidle' });
    // Islands marked client:idle start loading only once the browser is idle, which on a busy machine
    // can come after the network first fell quiet: wait for an idle moment, then for the network again.
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => resolve(null), { timeout: 2_000 })));
    await page.waitForLoadState('networkidle');
    await Promise.all(pending);
  } finally {
    page.off('response', onResponse);
  }
  let total = 0;
  for (const size of files.values()) total += size;
  return { total, files };
}

/**
 * The scripts Chromium transferred while `visit` ran, from the DevTools protocol: each script's
 * `encodedDataLength` (what came over the wire: compressed as served, response headers included). It
 * follows the page through navigations, so a guard's redirect and what the next page loads are counted.
 */
export async function measureTransferredScripts(page: Page, visit: () => Promise<void>): Promise<ScriptBytes> {
  const cdp = await page.context().newCDPSession(page);
  const scriptRequests = new Map<string, string>();
  const files = new Map<string, number>();
  cdp.on('Network.responseReceived', (event) => {
    if (event.type === 'Script') scriptRequests.set(event.requestId, new URL(event.response.url).pathname);
  });
  cdp.on('Network.loadingFinished', (event) => {
    const path = scriptRequests.get(event.requestId);
    if (path !== undefined) files.set(path, (files.get(path) ?? 0) + event.encodedDataLength);
  });
  await cdp.send('Network.enable');
  try {
    await visit();
  } finally {
    await cdp.detach();
  }
  let total = 0;
  for (const size of files.values()) total += size;
  return { total, files };
}
