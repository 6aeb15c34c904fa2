// A reader's page keeps working across a publish: the hashed files it may still ask for (a lazily loaded
// script, the search index chunks Pagefind fetches after reading the entry of the build the page came from)
// are answered from the replaced build for a while when the new build lacks them. Pagefind skips a chunk it
// cannot fetch without a word, so without this a search begun just before a publish found nothing.
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CARRY_MS, loadStaticSite, type StaticSite } from '../../../server/static/static-site.ts';
import { makeTempDir } from '../../helpers/test-context.ts';
import { writeBuild as writeBuildFiles } from './fixture-build.ts';

let root: string;
beforeEach(() => {
  root = makeTempDir('site-carry-');
});
afterEach(() => {
  vi.useRealTimers();
  fs.rmSync(root, { recursive: true, force: true });
});

const writeBuild = (name: string, files: Record<string, string>) => writeBuildFiles(root, name, files);

const build = (generation: string, pages: Record<string, string> = {}) => ({
  'index.html': `<!DOCTYPE html><h1>Home ${generation}</h1>`,
  [`_astro/app.${generation}.js`]: `export const generation = '${generation}';`,
  'pagefind/pagefind.js': 'export function init() {}',
  'pagefind/pagefind-entry.json': JSON.stringify({ index: `${generation}.pf_index` }),
  [`pagefind/index/${generation}.pf_index`]: `chunk of ${generation}`,
  ...pages,
});

const bodyAt = (site: StaticSite, urlPath: string) => site.lookup(urlPath)?.identity.body.toString('utf8');

describe('files a page of the replaced build may still ask for', () => {
  it('are answered from the build one back when the new build lacks them; pages and same-named files are the new build’s', async () => {
    const first = await loadStaticSite(writeBuild('one', build('aaa', { 'news/index.html': '<h1>News</h1>' })));
    const second = await loadStaticSite(writeBuild('two', build('bbb')), { previous: first });

    expect(bodyAt(second, '/pagefind/index/aaa.pf_index')).toBe('chunk of aaa');
    expect(bodyAt(second, '/_astro/app.aaa.js')).toBe("export const generation = 'aaa';");
    expect(bodyAt(second, '/pagefind/index/bbb.pf_index')).toBe('chunk of bbb');
    // A name both builds have answers with the new bytes; a page the new build dropped is gone.
    expect(bodyAt(second, '/pagefind/pagefind-entry.json')).toBe(JSON.stringify({ index: 'bbb.pf_index' }));
    expect(second.lookup('/news/')).toBeUndefined();
    expect(second.fileCount).toBe(5);

    // One build back only: what the second build carried is not carried again.
    const third = await loadStaticSite(writeBuild('three', build('ccc')), { previous: second });
    expect(bodyAt(third, '/pagefind/index/bbb.pf_index')).toBe('chunk of bbb');
    expect(third.lookup('/pagefind/index/aaa.pf_index')).toBeUndefined();
    expect(third.lookup('/_astro/app.aaa.js')).toBeUndefined();
  });

  it('stop being answered once the carry time is over', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const first = await loadStaticSite(writeBuild('one', build('aaa')));
    const second = await loadStaticSite(writeBuild('two', build('bbb')), { previous: first });
    vi.advanceTimersByTime(CARRY_MS - 1);
    expect(bodyAt(second, '/pagefind/index/aaa.pf_index')).toBe('chunk of aaa');
    vi.advanceTimersByTime(1);
    expect(second.lookup('/pagefind/index/aaa.pf_index')).toBeUndefined();
    expect(second.lookup('/_astro/app.aaa.js')).toBeUndefined();
    expect(bodyAt(second, '/_astro/app.bbb.js')).toBe("export const generation = 'bbb';");
  });
});
