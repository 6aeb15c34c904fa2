// Page weight as an anonymous reader's browser pays it: the HTML (raw and gzip -9), and the JavaScript a
// real Chromium downloads with the page until the network is idle (scripts/js-bytes.ts, the measure the
// Lighthouse script and the e2e budget test use too), and what Chromium really transferred for it, headers
// included (the measure of the guarded pages' test, docs/decisions/0038-guarded-islands.md). /dashboard and
// /admin are measured signed out: the guard sends the visitor home, where the login dialog opens.
import zlib from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { measureScriptBytes, measureTransferredScripts, type ScriptBytes } from '../../scripts/js-bytes.ts';

/** The guarded pages, measured as a signed-out visitor meets them (the guard's redirect and the login dialog). */
export const SIGNED_OUT_GUARDED_PAGES: ReadonlySet<string> = new Set(['/dashboard', '/admin']);

export interface PageWeight {
  path: string;
  status: number;
  htmlBytes: number;
  htmlGzipBytes: number;
  jsFiles: number;
  jsGzipBytes: number;
  /** Script bytes over the wire (as served, response headers included), across the guard's redirect; absent in older reports. */
  jsTransferredBytes?: number;
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// docs/engineering.md#known-traps: without these Chromium floods the closed network with refused connections.
const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}

export async function measurePage(browser: Browser, base: string, path: string): Promise<PageWeight> {
  const response = await fetch(`${base}${path}`, { redirect: 'manual' });
  const html = Buffer.from(await response.arrayBuffer());
  // A fresh context: no cookies, no cache, as a first-time anonymous reader.
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    let scripts: ScriptBytes = { total: 0, files: new Map() };
    const transferred = await measureTransferredScripts(page, async () => {
      scripts = await measureScriptBytes(page, `${base}${path}`);
    });
    return {
      path,
      status: response.status,
      htmlBytes: html.length,
      htmlGzipBytes: zlib.gzipSync(html, { level: 9 }).length,
      jsFiles: scripts.files.size,
      jsGzipBytes: scripts.total,
      jsTransferredBytes: transferred.total,
    };
  } finally {
    await context.close();
  }
}
