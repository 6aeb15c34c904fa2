// A switch costs what changed (issue 31, item 1): an incremental publish links the live build's files into
// the next build and replaces what changed by rename, and the loader takes over the entry of every file that
// is still the same file (inode, size, modification time) instead of reading, hashing and compressing it
// again. What it serves must be exactly what a fresh load of the same directory serves.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkBuildDir, replaceLinkedFile } from '../../../server/publish/build-dirs.ts';
import { loadStaticSite, type StaticEntry, type StaticSite } from '../../../server/static/static-site.ts';
import { makeTempDir } from '../../helpers/test-context.ts';
import { writeBuild } from './fixture-build.ts';

let root: string;
beforeEach(() => {
  root = makeTempDir('site-unchanged-');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const page = (title: string) => `<!DOCTYPE html><html><body><h1>${title}</h1>${'<p>Measured to the micron.</p>'.repeat(60)}</body></html>`;
const FILES = {
  'index.html': page('Home'),
  'news/index.html': page('News'),
  'news/rss.xml': `<rss>${'<item>news</item>'.repeat(80)}</rss>`,
  '_astro/app.Ab12.js': 'export const app = 1;\n'.repeat(100),
  'robots.txt': 'User-agent: *\n',
};

/**
 * The next build as an incremental publish makes it: every file linked, the changed ones replaced as the
 * renderer replaces them (their old compressed forms gone, the new bytes renamed over the link).
 */
function nextBuild(from: string, name: string, changed: Record<string, string>): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  linkBuildDir(from, dir);
  for (const [file, text] of Object.entries(changed)) replaceLinkedFile(path.join(dir, file), text);
  return dir;
}

/** Every representation a site answers for each file, bytes and headers: what a reader can tell apart. */
function served(site: StaticSite, files: readonly string[]) {
  const variants = (entry: StaticEntry | undefined) =>
    [entry?.identity, entry?.gzip, entry?.br].map((variant) => variant && { body: variant.body.toString('base64'), headers: variant.headers });
  return Object.fromEntries(files.map((file) => [file, variants(site.lookup(`/${file}`))]));
}

const entryOf = (site: StaticSite, file: string) => site.lookup(`/${file}`);

describe('loading the next build over the live one', () => {
  it('takes over the entries of unchanged files, reads the changed ones, and serves what a fresh load serves', async () => {
    const first = writeBuild(root, 'one', FILES);
    const live = await loadStaticSite(first, { writeCompressed: true });
    const second = nextBuild(first, 'two', { 'news/index.html': page('News, edited'), 'news/rss.xml': '<rss><item>edited</item></rss>' });
    const next = await loadStaticSite(second, { previous: live, writeCompressed: true });

    for (const file of ['index.html', '_astro/app.Ab12.js', 'robots.txt']) expect(entryOf(next, file), file).toBe(entryOf(live, file));
    for (const file of ['news/index.html', 'news/rss.xml']) expect(entryOf(next, file), file).not.toBe(entryOf(live, file));
    expect(entryOf(next, 'news/index.html')?.identity.body.toString()).toContain('News, edited');
    expect(entryOf(next, 'news/rss.xml')?.identity.body.toString()).toBe('<rss><item>edited</item></rss>');

    const fresh = await loadStaticSite(second);
    const files = Object.keys(FILES);
    expect(served(next, files)).toEqual(served(fresh, files));
    // The live build is untouched by the next one.
    expect(entryOf(await loadStaticSite(first), 'news/index.html')?.identity.body.toString()).toContain('<h1>News</h1>');
  });

  it('reads a file again when it is not the same file: rewritten in place, or another file by the same name', async () => {
    const first = writeBuild(root, 'one', FILES);
    const live = await loadStaticSite(first);
    const second = nextBuild(first, 'two', {});
    // Written into (the same inode, new bytes and time): never done by a publish, still never served stale.
    fs.writeFileSync(path.join(second, 'robots.txt'), 'User-agent: *\nDisallow: /private\n');
    const next = await loadStaticSite(second, { previous: live });
    expect(entryOf(next, 'robots.txt')).not.toBe(entryOf(live, 'robots.txt'));
    expect(entryOf(next, 'robots.txt')?.identity.body.toString()).toContain('Disallow: /private');
    expect(entryOf(next, 'index.html')).toBe(entryOf(live, 'index.html'));

    // A full build: the same bytes in new files are read (their forms still reused by content).
    const rebuilt = writeBuild(root, 'three', FILES);
    const full = await loadStaticSite(rebuilt, { previous: next });
    expect(entryOf(full, 'index.html')).not.toBe(entryOf(next, 'index.html'));
    expect(entryOf(full, 'index.html')?.sha256).toBe(entryOf(next, 'index.html')?.sha256);
  });

  it('reads again an entry loaded without its compressed forms, so the reload gets them (a first build before its forms)', async () => {
    const first = writeBuild(root, 'one', FILES);
    const uncompressed = await loadStaticSite(first, { compress: false });
    expect(entryOf(uncompressed, 'index.html')?.br).toBeNull();
    const compressed = await loadStaticSite(first, { previous: uncompressed, writeCompressed: true });
    expect(entryOf(compressed, 'index.html')).not.toBe(entryOf(uncompressed, 'index.html'));
    expect(entryOf(compressed, 'index.html')?.br).not.toBeNull();

    // Another process (no compressing, forms read back from disk) takes over what it read whole, and reads
    // again what lacked its forms on disk.
    const worker = await loadStaticSite(first, { compress: false, previous: uncompressed });
    expect(entryOf(worker, 'index.html')?.br?.body).toEqual(entryOf(compressed, 'index.html')?.br?.body);
    const second = nextBuild(first, 'two', { 'news/index.html': page('News, edited') });
    const workerNext = await loadStaticSite(second, { compress: false, previous: worker });
    expect(entryOf(workerNext, 'index.html')).toBe(entryOf(worker, 'index.html'));
  });

  it('writes a taken-over entry’s forms into the new directory when it lacks them, for the other processes and nginx', async () => {
    const first = writeBuild(root, 'one', FILES);
    const live = await loadStaticSite(first, { writeCompressed: true });
    const second = nextBuild(first, 'two', {});
    fs.rmSync(path.join(second, 'index.html.br'));
    fs.rmSync(path.join(second, 'index.html.gz'));
    const next = await loadStaticSite(second, { previous: live, writeCompressed: true });
    expect(entryOf(next, 'index.html')).toBe(entryOf(live, 'index.html'));
    expect(fs.readFileSync(path.join(second, 'index.html.br'))).toEqual(entryOf(live, 'index.html')?.br?.body);
    expect(fs.readFileSync(path.join(second, 'index.html.gz'))).toEqual(entryOf(live, 'index.html')?.gzip?.body);
  });
});
