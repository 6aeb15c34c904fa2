// Builds the real site from the fixture snapshot (tests/fixtures/snapshot.json) and checks what a
// reader and a crawler get: every route, titles, canonical links, the nav bar, no inline scripts,
// the posts and downloads rules, KaTeX shipped locally. One build (a few seconds) for the whole file.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSnapshot } from '../../common/snapshot-schema.ts';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
const fixtureFile = path.join(projectRoot, 'tests/fixtures/snapshot.json');
const fixture = parseSnapshot(JSON.parse(fs.readFileSync(fixtureFile, 'utf8')), fixtureFile);
const year = new Date().getFullYear();

let tempDir: string;
let outDir: string;

beforeAll(() => {
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-build-'));
  const contentDir = path.join(tempDir, 'content');
  outDir = path.join(tempDir, 'out');
  fs.mkdirSync(contentDir);
  fs.copyFileSync(path.join(projectRoot, 'tests/fixtures/snapshot.json'), path.join(contentDir, 'site.json'));
  // Like the publisher: a private working directory inside the project, so Astro's prerender chunks
  // of parallel builds do not meet, while node_modules still resolves.
  const cacheDir = path.join(projectRoot, 'node_modules', '.cache');
  fs.mkdirSync(cacheDir, { recursive: true });
  const workDir = fs.mkdtempSync(path.join(cacheDir, 'site-build-test-'));
  try {
    const result = spawnSync(
      process.execPath,
      [path.join(projectRoot, 'node_modules/astro/bin/astro.mjs'), 'build', '--root', projectRoot, '--outDir', outDir],
      {
        cwd: workDir,
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          CONTENT_DIR: contentDir,
          ASTRO_TELEMETRY_DISABLED: '1',
          ASTRO_CACHE_DIR: path.join(tempDir, 'cache'),
          NO_COLOR: '1',
        },
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    if (result.status !== 0) throw new Error(`astro build failed:\n${result.stdout}\n${result.stderr}`);
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}, 150_000);

afterAll(() => {
  if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
});

function page(route: string): string {
  return fs.readFileSync(path.join(outDir, route, 'index.html'), 'utf8');
}

function allFiles(ext: string): string[] {
  return (fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' }) as string[]).filter((file) => file.endsWith(ext));
}

const ROUTES = [
  '/',
  '/news',
  '/news/company-news',
  '/news/events',
  '/documentation',
  '/documentation/getting-started',
  '/documentation/reference',
  '/tutorials',
  '/tutorials/first-steps',
  '/downloads',
  '/contact',
  '/admin',
  '/dashboard',
  '/email/verified',
  '/reset-password',
  '/reset-pasword/form',
  '/search',
  // The legal pages (issue 28, section 1).
  '/privacy',
  '/terms',
  '/imprint',
];

describe('the built site', () => {
  it('has a page for every route and every section', () => {
    const built = allFiles('index.html').map((file) => `/${path.dirname(file)}`.replace(/\/\.$/, '/').replace(/\/$/, '') || '/');
    expect(built.sort()).toEqual([...ROUTES].sort());
  });

  it.each(ROUTES)('%s has the title prefix, canonical link, lang, skip link and nav bar', (route) => {
    const html = page(route);
    expect(html).toMatch(new RegExp(`<title>Dimensional Control ${year} – [^<]+</title>`));
    const canonical =
      route === '/news'
        ? '/news/company-news'
        : route === '/documentation'
          ? '/documentation/getting-started'
          : route === '/tutorials'
            ? '/tutorials/first-steps'
            : route;
    expect(html).toContain(`<link rel="canonical" href="http://localhost:4321${canonical}">`);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<a class="skip-link" href="#main-content">');
    expect(html).toContain('<main id="main-content"');
    expect(html).toMatch(/<meta name="description" content="[^"]+">/);
    expect(html).toContain('<meta property="og:title"');
    for (const href of ['/', '/news', '/documentation', '/tutorials', '/downloads', '/contact']) expect(html).toContain(`href="${href}"`);
    expect(html).toContain('>Contact Us</a>');
    expect(html).toContain('<div id="account-area" class="account-area" data-account-area></div>');
    expect(html).toContain('aria-controls="site-menu"');
  });

  it('marks the current top-level section in the nav bar', () => {
    const nav = (html: string) => html.slice(html.indexOf('<nav class="site-nav"'), html.indexOf('</nav>'));
    expect(nav(page('/'))).toMatch(/<a class="site-brand" href="\/" aria-current="page">Dimensional Control<\/a>/);
    expect(nav(page('/news/events')).match(/aria-current="page"/g)).toHaveLength(1);
    expect(nav(page('/news/events'))).toContain('<a href="/news" aria-current="page">News</a>');
    expect(nav(page('/reset-pasword/form'))).not.toContain('aria-current');
  });

  it("has no inline scripts but Astro's island loader: every other script is an external module", () => {
    for (const file of allFiles('.html')) {
      const html = fs.readFileSync(path.join(outDir, file), 'utf8');
      for (const [, attributes = '', body = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
        if (/\ssrc="\/_astro\/[^"]+\.js"/.test(attributes)) continue;
        // The only inline code allowed is Astro's hydration runtime, which the server hashes into the
        // page's CSP (server/static/inline-scripts.ts); anything else would be blocked in the browser.
        expect(body, file).toMatch(/self\.Astro\|\|\(self\.Astro=\{\}\)|customElements\.define\("astro-island"/);
      }
    }
    // Pages without islands carry no inline script at all.
    expect(page('/news/company-news')).not.toMatch(/<script>/);
  });

  it('links no admin or account-island stylesheet from reading pages (they load on demand)', () => {
    for (const route of ['/', '/news/company-news', '/documentation/getting-started', '/downloads']) {
      const sheets = [...page(route).matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((match) => match[1]);
      expect(sheets.length, route).toBeGreaterThan(0);
      for (const sheet of sheets) expect(sheet, route).not.toMatch(/islands|admin|AdminConsole|content-admin/i);
    }
  });

  it('publishes a releases feed, linked from the downloads page', () => {
    const xml = fs.readFileSync(path.join(outDir, 'downloads', 'rss.xml'), 'utf8');
    const titles = [...xml.matchAll(/<item><title>([^<]+)<\/title>/g)].map((match) => match[1]);
    expect(titles.some((title) => title?.startsWith('CMM Suite 9'))).toBe(true);
    expect(titles.some((title) => title?.startsWith('CMM Suite 7'))).toBe(true);
    expect(xml).toContain('<link>http://localhost:4321/downloads</link>');
    expect(page('/downloads')).toContain(
      '<link rel="alternate" type="application/rss+xml" title="Dimensional Control – Software releases" href="/downloads/rss.xml">',
    );
  });

  it('shows home sections in order, the buttons on the first, images sized with srcset', () => {
    const html = page('/');
    const titles = [...html.matchAll(/class="home-section__title">([^<]+)</g)].map((match) => match[1]);
    expect(titles).toEqual(['Precision measurement software', 'Services and training', 'About us']);
    expect(html).toMatch(/<h1 id="home-section-1" class="home-section__title">/);
    const first = html.slice(html.indexOf('data-home-section="1"'), html.indexOf('data-home-section="2"'));
    expect(first).toContain('<a class="button" href="/documentation">Documentation</a>');
    expect(first).toContain('href="/downloads">Downloads</a>');
    expect(html.match(/href="\/documentation"[^>]*>Documentation<\/a>/g)).toHaveLength(3); // nav, button, footer
    expect(html).toMatch(
      /<img src="\/media\/home\/probe-lg.png" srcset="\/media\/home\/probe-thumb.png 480w, \/media\/home\/probe-lg.png 1200w" sizes="[^"]+" width="1200" height="800" alt="A touch probe measuring a machined part" loading="eager" fetchpriority="high"/,
    );
    expect(html).toMatch(/alt="Engineers in a training session" loading="lazy"/);
    expect(html).toContain('<meta property="og:image" content="http://localhost:4321/media/home/probe-lg.png">');
  });

  it('lists a section with its posts: sidebar, heading, articles with id, author and time', () => {
    const html = page('/news/company-news');
    expect(html).toContain('<h1 class="posts-heading">Company news</h1>');
    expect([...html.matchAll(/<article id="([^"]+)"/g)].map((match) => match[1])).toEqual(['cmm-suite-9-released', 'new-office-in-leeds', 'trade-fair-dates']);
    // The sidebar lists the posts in the order of the articles (issue 28, 2.10: news had them reversed).
    expect([...html.matchAll(/data-post-link="([^"]+)"/g)].map((match) => match[1])).toEqual([
      'cmm-suite-9-released',
      'new-office-in-leeds',
      'trade-fair-dates',
    ]);
    expect(html).toContain('<a href="/news/events" data-section-link="events">Events</a>');
    expect(html).toContain('<time datetime="2026-01-05T10:00:00.000Z" data-relative-time>5 January 2026</time>');
    expect(html).toMatch(/Ada Admin <span class="post__role">admin<\/span>/);
    expect(html).toContain('cmm-suite-9-notes.pdf');
    // Outside tutorials the notice speaks of a plain download (issue 14).
    expect(html).toContain('You must be logged in to use download');
    expect(html).not.toContain('tutorial materials');
  });

  it('keeps the default order in the documentation sidebar and shows the first section at /documentation', () => {
    const html = page('/documentation');
    expect(html).toContain('<h1 class="posts-heading">Getting started</h1>');
    expect([...html.matchAll(/data-post-link="([^"]+)"/g)].map((match) => match[1])).toEqual(['installing-cmm-suite', 'markdown-showcase']);
  });

  it('says so when a section has no posts', () => {
    expect(page('/news/events')).toContain('No posts in this section yet.');
  });

  it('renders markdown with every feature, and nothing dangerous', () => {
    const html = page('/documentation/getting-started');
    expect(html).toContain('<mark>highlighted text</mark>');
    expect(html).toContain('<del>strikethrough</del>');
    expect(html).toContain('“Smart quotes”');
    expect(html).toContain('🚀');
    expect(html).toContain('<a href="https://example.com/metrology" rel="noopener noreferrer">');
    expect(html).toContain('<span class="katex-display" tabindex="0">');
    expect(html).toContain('<table tabindex="0">');
    expect(html).toContain('src="https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"');
    expect(html).not.toContain("alert('this never runs')");
    expect(html).not.toMatch(/onerror/i);
  });

  it('shows downloadable releases as cards and the rest in the Previous Releases table', () => {
    const html = page('/downloads');
    expect(html).toContain('You must login to download software!');
    expect([...html.matchAll(/class="download-card__title">([^<]+)</g)].map((match) => match[1])).toEqual(['CMM Suite 9', 'Viewer']);
    expect(html).toContain('Version 9.0.2');
    expect(html).not.toContain('Version 0');
    const table = html.slice(html.indexOf('<table class="releases-table">'));
    expect(table).toMatch(/<th scope="col">Title<\/th>\s*<th scope="col">Version<\/th>\s*<th scope="col">Description<\/th>/);
    expect([...table.matchAll(/<th scope="row">([^<]+)</g)].map((match) => match[1])).toEqual(['CMM Suite 8', 'CMM Suite 7']);
  });

  it('keeps a release using none of issue 25 as before, and lists the files of one that does', () => {
    const html = page('/downloads');
    const cardOf = (title: string) => {
      const start = html.lastIndexOf('<article', html.indexOf(`class="download-card__title">${title}<`));
      return html.slice(start, html.indexOf('</article>', start));
    };
    // "Viewer": one file for any platform, no version, stable, no entitlement: today's card and its one slot.
    const viewer = cardOf('Viewer');
    expect(viewer).not.toContain('release-files');
    expect(viewer).not.toContain('data-file-url');
    expect(viewer).toContain('class="download-card__file"');
    // Its hash and the copy button the page script enables (src/scripts/copy-buttons.ts), aimed at that hash.
    expect(viewer).toContain(
      '<code id="download-602-sha256" class="download-card__hash">60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752</code>',
    );
    expect(viewer).toMatch(
      /<button type="button" class="copy-button" data-copy-target="download-602-sha256" data-pagefind-ignore(="")? aria-label="Copy the SHA-256 of viewer.zip" hidden(="")?>/,
    );
    expect(viewer).toMatch(/<div class="download-card__action" data-download-action data-download-id="602" data-filename="[^"]+" data-size="\d+"><\/div>/);
    // "CMM Suite 9" has a version: its date, then a row per file with its own gated link for the page script.
    const suite = cardOf('CMM Suite 9');
    expect(suite).toContain('class="release-facts"');
    expect(suite).toContain('aria-label="Files of CMM Suite 9"');
    expect(suite).toContain('data-file-url="/api/downloads/file/601/6011"');
    expect(suite).toContain('<span class="release-file__platform-name">All platforms</span>');
    expect(suite).not.toContain('data-gated');
    expect(suite).toMatch(
      /<button type="button" class="copy-button" data-copy-target="download-601-file-6011-sha256" data-pagefind-ignore(="")? aria-label="Copy the SHA-256 of [^"]+" hidden(="")?>/,
    );
    // A previous release's files are in the page but hidden until the script finds the reader may download them.
    const table = html.slice(html.indexOf('<table class="releases-table">'));
    expect(table).toMatch(
      /<div class="previous-releases__files" data-release-files hidden>\s*<ul class="release-files release-files--compact" aria-label="Files of CMM Suite 8">/,
    );
    expect(table).toContain('data-file-url="/api/downloads/file/603/6031"');
    // Rendered at build time only: no island, no React for readers of this page.
    expect(html).not.toContain('<astro-island');
  });

  it('gives island pages their heading, mount point, noscript note and noindex', () => {
    const expectations: Array<[string, string, string]> = [
      ['/contact', 'Use the form for any enquiries:', 'contact-form'],
      ['/admin', 'Administration', 'admin-app'],
      ['/dashboard', 'User Dashboard', 'dashboard-app'],
      ['/email/verified', 'E-mail verification', 'email-verified'],
      ['/reset-password', 'Reset your password', 'reset-password'],
      ['/reset-pasword/form', 'Choose a new password', 'new-password'],
    ];
    for (const [route, heading, mount] of expectations) {
      const html = page(route);
      expect(html).toContain(`<h1>${heading}</h1>`);
      expect(html).toContain(`<div id="${mount}" class="island-mount" data-island="${mount}">`);
      expect(html).toContain('<noscript>');
      expect(html.includes('<meta name="robots" content="noindex">')).toBe(route !== '/contact');
      // Only the contact form is rendered at build time (hydrated when idle, its button disabled until
      // then); the other islands depend on the user or the query and render in the browser.
      expect(html.includes('<form class="form')).toBe(route === '/contact');
    }
  });

  it('ships KaTeX styles and fonts itself, and loads nothing from other hosts', () => {
    expect(allFiles('.woff2').some((file) => file.startsWith('_astro/KaTeX_Main-Regular'))).toBe(true);
    for (const file of [...allFiles('.css'), ...allFiles('.js')]) {
      const text = fs.readFileSync(path.join(outDir, file), 'utf8');
      expect(text, file).not.toMatch(/url\(\s*["']?(?:https?:)?\/\//);
      expect(text, file).not.toMatch(/@import/);
    }
    for (const file of allFiles('.html')) {
      const html = fs.readFileSync(path.join(outDir, file), 'utf8');
      for (const tag of html.match(/<link\b[^>]*>|<script\b[^>]*>|<img\b[^>]*>/g) ?? []) {
        if (/rel="canonical"/.test(tag)) continue;
        expect(tag, file).not.toMatch(/(?:href|src)="(?:https?:)?\/\//);
      }
    }
  });

  it('builds only what the snapshot holds', () => {
    // One page per section, one per namespace, and the twelve fixed routes.
    const sections = Object.values(fixture.namespaces).flat().length;
    expect(allFiles('index.html')).toHaveLength(sections + 3 + 12);
  });

  it('shows the legal pages, linked from every footer, and the contact details from the snapshot (issue 28)', () => {
    expect(page('/privacy')).toContain('<code>XSRF-TOKEN</code>');
    expect(page('/imprint')).toContain('<strong>Dimensional Control Ltd.</strong>');
    for (const route of ['/', '/news', '/contact']) expect(page(route)).toMatch(/href="\/privacy"[^>]*>Privacy Policy</);
    const contact = page('/contact');
    expect(contact).toContain('href="mailto:info@example.com"');
    expect(contact).toContain('href="tel:+442000000000"');
  });
});
