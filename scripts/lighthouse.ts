// `npm run lighthouse [-- <site URL>]`: Lighthouse at mobile settings on /, a news section and a
// documentation section (issue 4, item 8), with Debian's Chromium, and the gzipped JavaScript each page
// loads before any interaction. Without a URL it starts the product on a temporary DATA_DIR (demo
// content, first build ~10 s) and stops it afterwards. The JavaScript figures come from Playwright and
// need no Lighthouse; the scores need the `lighthouse` package (devDependency), and are skipped with a
// note when it is missing. Exits 1 when a target is missed: performance ≥ 95, the other three 100,
// ≤ 30 KB of gzipped JavaScript.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { measureScriptBytes } from './js-bytes.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url));
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const TARGETS: Record<(typeof CATEGORIES)[number], number> = { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 };
const JS_BUDGET_BYTES = 30 * 1024;
const START_TIMEOUT_MS = 180_000;

type Category = (typeof CATEGORIES)[number];

interface LighthouseResult {
  lhr: {
    categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
    audits: Record<string, { title: string; score: number | null; scoreDisplayMode: string; displayValue?: string }>;
    runtimeError?: { message: string };
  };
}
type LighthouseRun = (url: string, flags: Record<string, unknown>) => Promise<LighthouseResult | undefined>;

async function loadLighthouse(): Promise<LighthouseRun | null> {
  // A variable specifier: the package is optional, so type checks and bundlers must not require it.
  const name = 'lighthouse';
  try {
    const module = (await import(name)) as { default: LighthouseRun };
    return module.default;
  } catch {
    return null;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts `node server/index.ts` on a fresh data directory and waits until its first build is live. */
async function startProduct(): Promise<{ url: string; stop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-lighthouse-'));
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['server/index.ts'], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      CONTENT_DIR: path.join(dataDir, 'content'),
      SITE_URL: url,
      ADMIN_EMAIL: 'lighthouse-admin@example.com',
      ADMIN_PASSWORD: `lh-${Math.random().toString(36).slice(2)}-password`,
      ASTRO_TELEMETRY_DISABLED: '1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  process.stdout.write(`Starting the product at ${url} (first build takes a few seconds)…\n`);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    // 503 while the first build runs; 200 once it is live.
    const status = await fetch(`${url}/`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return { url, stop };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error('The product did not start (see its output above).');
}

/** /, the first news section and the first documentation section, read from the live sitemap. */
async function pagesToAudit(base: string): Promise<string[]> {
  const sitemap = await (await fetch(`${base}/sitemap.xml`)).text();
  const locations = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!.replace(/&amp;/g, '&')));
  const section = (namespace: string) =>
    locations.find((loc) => new RegExp(`^/${namespace}/[^/]+$`).test(loc.pathname) && !loc.hash)?.pathname ?? `/${namespace}`;
  return ['/', section('news'), section('documentation')];
}

const pad = (text: string | number, width: number) => String(text).padStart(width);

async function main(): Promise<void> {
  const argument = process.argv.slice(2).find((arg) => !arg.startsWith('-'));
  const product = argument ? { url: argument.replace(/\/+$/, ''), stop: async () => {} } : await startProduct();
  let failed = false;
  try {
    const pages = await pagesToAudit(product.url);
    const debuggingPort = await freePort();
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--headless', ...CHROMIUM_ARGS, `--remote-debugging-port=${debuggingPort}`],
    });
    const lighthouse = await loadLighthouse();
    if (!lighthouse) {
      process.stdout.write(
        '\nLighthouse is not installed, so only the JavaScript figures follow. To get the scores:\n  npm install --save-dev lighthouse@^13.5.0\n',
      );
    }
    const rows: string[] = [];
    try {
      for (const pagePath of pages) {
        const url = `${product.url}${pagePath}`;
        // An anonymous reader on a phone-sized window; a fresh context each time, so nothing is cached.
        const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
        const js = await measureScriptBytes(await context.newPage(), url);
        await context.close();
        const overBudget = js.total > JS_BUDGET_BYTES;
        failed ||= overBudget;

        let scores = CATEGORIES.map(() => '  –').join(' ');
        const notes: string[] = [];
        if (lighthouse) {
          const result = await lighthouse(url, { port: debuggingPort, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
          if (!result || result.lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${result?.lhr.runtimeError?.message ?? 'no result'}`);
          const values = CATEGORIES.map((category) => Math.round((result.lhr.categories[category]?.score ?? 0) * 100));
          scores = values.map((value) => pad(value, 3)).join(' ');
          CATEGORIES.forEach((category: Category, index) => {
            if ((values[index] ?? 0) >= TARGETS[category]) return;
            failed = true;
            // Name what cost the points, so the next step is clear.
            for (const ref of result.lhr.categories[category]?.auditRefs ?? []) {
              const audit = result.lhr.audits[ref.id];
              if (audit && ref.weight > 0 && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative')
                notes.push(`    ${category}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
            }
          });
        }
        rows.push(`${pagePath.padEnd(34)} ${scores}  ${pad(js.total, 7)} B${overBudget ? '  over the 30 KB budget' : ''}`, ...notes);
        for (const [file, size] of js.files) rows.push(`${''.padEnd(36)}${pad(size, 6)} B  ${file}`);
      }
    } finally {
      await browser.close();
    }
    process.stdout.write(`\n${'page'.padEnd(34)} perf a11y  bp seo  JS (gzip)\n${rows.join('\n')}\n`);
    process.stdout.write(
      `\nTargets: performance ≥ ${TARGETS.performance}, accessibility, best practices and SEO 100; ≤ ${JS_BUDGET_BYTES} B of gzipped JavaScript.\n`,
    );
  } finally {
    await product.stop();
  }
  if (failed) process.exitCode = 1;
}

await main();
