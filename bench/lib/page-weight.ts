// Page weight as an anonymous reader's browser pays it: the HTML (raw and gzip -9), and the JavaScript a
// real Chromium downloads with the page until the network is idle (scripts/js-bytes.ts, the measure the
// Lighthouse script and the e2e budget test use too).
import zlib from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { measureScriptBytes } from '../../scripts/js-bytes.ts';

export interface PageWeight {
  path: string;
  status: number;
  htmlBytes: number;
  htmlGzipBytes: number;
  jsFiles: number;
  jsGzipBytes: number;
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
    const scripts = await measureScriptBytes(await context.newPage(), `${base}${path}`);
    return { path, status: response.status, htmlBytes: html.length, htmlGzipBytes: zlib.gzipSync(html, { level: 9 }).length, jsFiles: scripts.files.size, jsGzipBytes: scripts.total };
  } finally {
    await context.close();
  }
}
