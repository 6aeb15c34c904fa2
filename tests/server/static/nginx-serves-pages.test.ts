// NGINX_SERVES_PAGES (issue 31, item 3): behind nginx, no serving process holds page bodies. The primary's
// load still writes every compressed form nginx sends, then keeps nothing it would serve; the next load
// reuses the forms from the previous build's files (no brotli again for bytes that did not change), and the
// page policies too. A web worker reads nothing of the build.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadStaticSite, siteServedFromDisk } from '../../../server/static/static-site.ts';
import { createHttpServer } from '../../../server/server.ts';
import { listen, rawRequest } from '../../helpers/raw-http.ts';
import { createTestContext, makeTempDir, type TestContext } from '../../helpers/test-context.ts';
import { writeFixtureBuild } from './fixture-build.ts';

let root: string;
let buildDir: string;

beforeEach(() => {
  root = makeTempDir('site-nginx-pages-');
  ({ buildDir } = writeFixtureBuild(root));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** The next build: the same files (none of their compressed forms), as a full build writes them. */
function copyWithoutForms(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, filter: (source) => !/\.(br|gz)$/.test(source) });
}

describe('a build loaded without its bodies', () => {
  it('writes the forms nginx sends and answers no path itself', async () => {
    const site = await loadStaticSite(buildDir, { writeCompressed: true, keepBodies: false });
    const page = fs.readFileSync(path.join(buildDir, 'index.html'));
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(buildDir, 'index.html.br'))).equals(page)).toBe(true);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(buildDir, 'news/index.html.gz'))).toString()).toContain('News page');
    expect(site.fileCount).toBeGreaterThan(5);
    expect(site.lookup('/')).toBeUndefined();
    expect(site.lookup('/index.html')).toBeUndefined();
  });

  it('hands the next load the forms of unchanged bytes from disk, and makes the changed ones', async () => {
    const first = await loadStaticSite(buildDir, { writeCompressed: true, keepBodies: false });
    // Mark the first build's stored form (the same page at brotli's quality 1, bytes the load itself never
    // makes): if the next load took it from there, the marker travels.
    const marked = zlib.brotliCompressSync(fs.readFileSync(path.join(buildDir, 'news/index.html')), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } });
    fs.writeFileSync(path.join(buildDir, 'news/index.html.br'), marked);
    const next = path.join(root, 'builds', 'next');
    copyWithoutForms(buildDir, next);
    fs.writeFileSync(path.join(next, 'index.html'), fs.readFileSync(path.join(buildDir, 'index.html'), 'utf8').replace('Home page', 'Home page, edited'));

    await loadStaticSite(next, { previous: first, writeCompressed: true, keepBodies: false });
    expect(fs.readFileSync(path.join(next, 'news/index.html.br')).equals(marked)).toBe(true);
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(next, 'index.html.br'))).toString()).toContain('Home page, edited');
  });

  it('makes a form again when the previous build lost it', async () => {
    const first = await loadStaticSite(buildDir, { writeCompressed: true, keepBodies: false });
    fs.rmSync(path.join(buildDir, 'news/index.html.br'));
    const next = path.join(root, 'builds', 'next');
    copyWithoutForms(buildDir, next);
    await loadStaticSite(next, { previous: first, writeCompressed: true, keepBodies: false });
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(next, 'news/index.html.br'))).toString()).toContain('News page');
  });
});

describe('a serving process behind nginx', () => {
  let ctx: TestContext;
  beforeEach(() => {
    ctx = createTestContext();
  });
  afterEach(() => ctx.cleanup());

  it('is ready (a build is live) but leaves pages to nginx: a page path reaches the app, never a body from memory', async () => {
    const site = siteServedFromDisk(buildDir);
    const server = await listen(createHttpServer({ app: ctx.app, getSite: () => site, mediaDir: ctx.config.uploadsDir }));
    try {
      const answer = await rawRequest(server.port, '/news/');
      expect(answer.text).not.toContain('News page');
      // Not the "being built" page either: a build is live, nginx has it.
      expect(answer.status).not.toBe(503);
    } finally {
      await server.close();
    }
  });
});
