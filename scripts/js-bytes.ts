// The JavaScript an anonymous reader downloads with a page, before any interaction: every script
// response until the network is idle (entry modules, their imports, dynamic imports made at load),
// each counted at gzip level 9 (how the server stores it) so the figure does not depend on what the
// browser negotiated. Used by `npm run lighthouse` and the budget test in tests/e2e/reading.spec.ts.
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
