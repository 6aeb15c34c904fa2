// Compressed forms made once per build: the primary writes `file.br`/`file.gz` beside each file it
// compressed, the other serving processes (compress: false) read them instead of compressing, and a form older than its
// file is never used. The forms are not files of the site themselves.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadStaticSite } from '../../../server/static/static-site.ts';
import { makeTempDir } from '../../helpers/test-context.ts';
import { writeFixtureBuild } from './fixture-build.ts';

let root: string;
let buildDir: string;

beforeEach(() => {
  root = makeTempDir('site-precompressed-');
  ({ buildDir } = writeFixtureBuild(root));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const exists = (file: string) => fs.existsSync(path.join(buildDir, file));

describe('compressed forms beside the build', () => {
  it('are written by the primary for the files worth compressing, and only for those', async () => {
    await loadStaticSite(buildDir, { writeCompressed: true });
    for (const file of ['index.html', 'news/index.html', '_astro/app.Ab12Cd.js']) {
      expect(exists(`${file}.br`), file).toBe(true);
      expect(exists(`${file}.gz`), file).toBe(true);
    }
    const page = fs.readFileSync(path.join(buildDir, 'index.html'));
    expect(zlib.gunzipSync(fs.readFileSync(path.join(buildDir, 'index.html.gz'))).equals(page)).toBe(true);
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(buildDir, 'index.html.br'))).equals(page)).toBe(true);
    // Too small (robots.txt), or not compressible (PNG): nothing written; no temp file left either.
    expect(exists('robots.txt.gz')).toBe(false);
    expect(exists('_astro/logo.Zz99.png.br')).toBe(false);
    expect(fs.readdirSync(buildDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('are what a worker serves, with the same ETags as the primary, without compressing', async () => {
    const main = await loadStaticSite(buildDir, { writeCompressed: true });
    const worker = await loadStaticSite(buildDir, { compress: false });
    for (const requestPath of ['/', '/news/', '/_astro/app.Ab12Cd.js']) {
      const [a, b] = [main.lookup(requestPath), worker.lookup(requestPath)];
      expect(b?.br?.body.equals(a?.br?.body ?? Buffer.alloc(0)), requestPath).toBe(true);
      expect(b?.gzip?.etag).toBe(a?.gzip?.etag);
      expect(b?.identity.headers).toEqual(a?.identity.headers);
    }
    expect(worker.fileCount).toBe(main.fileCount);
    expect(worker.lookup('/index.html.br')).toBeUndefined();
    expect(worker.lookup('/index.html.gz')).toBeUndefined();
  });

  it('are not made by a worker when missing: it then sends the file as it is', async () => {
    const worker = await loadStaticSite(buildDir, { compress: false });
    expect(worker.lookup('/')?.br).toBeNull();
    expect(worker.lookup('/')?.gzip).toBeNull();
    expect(exists('index.html.br')).toBe(false);
  });

  it('are ignored when older than their file, and replaced by the primary', async () => {
    await loadStaticSite(buildDir, { writeCompressed: true });
    const page = path.join(buildDir, 'index.html');
    fs.writeFileSync(page, `${fs.readFileSync(page, 'utf8')}<p>changed after the forms were written</p>`);
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(`${page}.br`, past, past);
    fs.utimesSync(`${page}.gz`, past, past);
    expect((await loadStaticSite(buildDir, { compress: false })).lookup('/')?.br).toBeNull();
    const main = await loadStaticSite(buildDir, { writeCompressed: true });
    expect(zlib.brotliDecompressSync(main.lookup('/')?.br?.body ?? Buffer.alloc(0)).toString()).toContain('changed after');
    expect(zlib.brotliDecompressSync(fs.readFileSync(`${page}.br`)).toString()).toContain('changed after');
  });

  it('keep a build’s own .gz file servable when it is not the form of another file', async () => {
    fs.writeFileSync(path.join(buildDir, 'archive.tar.gz'), zlib.gzipSync('data'));
    const site = await loadStaticSite(buildDir, { writeCompressed: true });
    expect(site.lookup('/archive.tar.gz')).toBeDefined();
  });

  it('still load the site when they cannot be written, and say so', async () => {
    // A directory where the form should go: the rename fails, for root as for anyone.
    fs.mkdirSync(path.join(buildDir, 'news', 'index.html.br'));
    const failures: string[] = [];
    const site = await loadStaticSite(buildDir, { writeCompressed: true, onWriteError: (file) => failures.push(file) });
    expect(site.lookup('/news/')?.br).not.toBeNull();
    expect(failures).toEqual(['news/index.html.br']);
    expect(exists('news/index.html.gz')).toBe(true);
    expect(fs.readdirSync(path.join(buildDir, 'news')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
