// The publisher's incremental path with a fake runner (docs/decisions/0044-incremental-publish.md): the new
// build is a hard-linked copy whose rendered files replace links without touching the live build, a render
// that fails falls back to a full build in the same publish, and the dependency map names what changed.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertPost, insertSection } from '../../../server/features/content/queries.ts';
import type { BuildJob, BuildResult, BuildRunner, RenderJob } from '../../../server/publish/build-runner.ts';
import { codeVersion, readCodeVersion } from '../../../server/publish/code-version.ts';
import { findCurrentBuild, hasOwnSearchIndex, SEARCH_INDEXED_FILE } from '../../../server/publish/build-dirs.ts';
import { affectedRoutes } from '../../../server/publish/dependency-map.ts';
import { ensureLegalPages } from '../../../server/features/legal-pages/queries.ts';
import { exportSnapshot } from '../../../server/publish/export-snapshot.ts';
import { createPublisher } from '../../../server/publish/publisher.ts';
import { createPrimaryPublisher, createRemotePublisher } from '../../../server/publish/shared-publisher.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext();
});
afterEach(() => ctx.cleanup());

function fakeRunner(options: { renderFails?: boolean }) {
  const calls = { full: 0, render: 0, index: 0 };
  const run = async (job: BuildJob): Promise<BuildResult> => {
    calls.full++;
    fs.writeFileSync(path.join(job.outDir, 'index.html'), `home ${calls.full}`);
    fs.writeFileSync(path.join(job.outDir, 'page.html'), `page ${calls.full}`);
    return { ok: true, log: '', paths: ['/', '/page'] };
  };
  const render = async (job: RenderJob): Promise<BuildResult> => {
    calls.render++;
    if (options.renderFails) return { ok: false, log: 'Error: a page threw' };
    const file = path.join(job.outDir, 'page.html');
    fs.rmSync(file);
    fs.writeFileSync(file, `rendered ${calls.render}`);
    return { ok: true, log: '', written: ['page.html'], removed: [] };
  };
  const runner: BuildRunner = Object.assign(run, {
    canRender: () => true,
    render,
    indexSearch: async (dir: string) => {
      calls.index++;
      fs.mkdirSync(path.join(dir, 'pagefind'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'pagefind', 'pagefind.js'), `index ${calls.index}`);
      return { ok: true, log: '' };
    },
  });
  return { runner, calls };
}

/**
 * From now on the runner's next index takes as long as its signal lets it (Pagefind on a large site), and the
 * ones after it are the fake's own: `started` resolves when the held one begins, `aborted` counts its ends.
 */
function holdNextIndex(runner: BuildRunner) {
  const fastIndex = runner.indexSearch!;
  let held = true;
  let aborted = 0;
  let indexing: () => void = () => {};
  const started = new Promise<void>((resolve) => (indexing = resolve));
  runner.indexSearch = async (dir, config, signal) => {
    if (!held) return fastIndex(dir, config, signal);
    held = false;
    indexing();
    await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
    aborted++;
    return { ok: false, log: 'superseded' };
  };
  return { started, aborted: () => aborted };
}

async function publishWith(runner: BuildRunner, onLive: (dir: string) => void = () => {}) {
  const publisher = createPublisher({ config: ctx.config, db: ctx.db, log: ctx.log, runBuild: runner, onLive });
  const publish = async () => {
    publisher.schedule('test');
    await publisher.whenIdle();
    return publisher.status();
  };
  return { publisher, publish };
}

describe('an incremental publish (fake runner)', () => {
  it('renders into a hard-linked copy of the live build, leaving the live files as they were, then indexes search', async () => {
    const { runner, calls } = fakeRunner({});
    let firstDir = '';
    const seenLive: string[] = [];
    // When the rendered build goes live, the first build beside it is still whole (it is pruned later).
    const { publish } = await publishWith(runner, (dir) => {
      if (firstDir && dir !== firstDir) seenLive.push(fs.readFileSync(path.join(firstDir, 'page.html'), 'utf8'));
    });
    const first = await publish();
    firstDir = path.join(ctx.config.buildsDir, first.currentBuildId ?? '');
    const firstIndexInode = fs.statSync(path.join(firstDir, 'index.html')).ino;
    insertSection(ctx.db, 'news', { title: 'New', order: 1 });
    const second = await publish();
    expect(calls).toMatchObject({ full: 1, render: 1 });
    expect(second.search).toBe('updated');
    const liveDir = path.join(ctx.config.buildsDir, second.currentBuildId ?? '');
    expect(fs.readFileSync(path.join(liveDir, 'page.html'), 'utf8')).toBe('rendered 1');
    // The first build's index was the first (made after it went live), this build's the second.
    expect(fs.readFileSync(path.join(liveDir, 'pagefind', 'pagefind.js'), 'utf8')).toBe('index 2');
    // The unchanged file is the same inode as the first build's; the rendered one is not, and the first build's is intact.
    expect(fs.statSync(path.join(liveDir, 'index.html')).ino).toBe(firstIndexInode);
    expect(seenLive[0]).toBe('page 1');
    // Each build records the code that made it (a restart compares it, issue 31 item 2).
    expect(readCodeVersion(liveDir)).toBe(codeVersion(ctx.config.projectRoot));
  });

  it('puts the first build live before its search index, then its indexed copy, pages served meanwhile', async () => {
    const { runner, calls } = fakeRunner({});
    const indexSearch = runner.indexSearch!;
    const wentLive: { dir: string; indexed: boolean }[] = [];
    const { publisher, publish } = await publishWith(runner, (dir) => wentLive.push({ dir, indexed: fs.existsSync(path.join(dir, 'pagefind')) }));
    let whileIndexing: ReturnType<typeof publisher.status> | undefined;
    runner.indexSearch = async (dir, config, signal) => {
      whileIndexing = publisher.status();
      return indexSearch(dir, config, signal);
    };
    const status = await publish();
    // Pagefind did not hold the pages back: they were live (and the publisher idle) while it ran.
    expect(wentLive.map((build) => build.indexed)).toEqual([false, true]);
    expect(whileIndexing).toMatchObject({ state: 'idle', search: 'updating', currentBuildId: path.basename(wentLive[0]?.dir ?? '') });
    expect(calls).toMatchObject({ full: 1, index: 1 });
    // Then the indexed copy went live: the same page files (hard links) with the index beside them.
    expect(status).toMatchObject({ state: 'idle', search: 'updated', currentBuildId: path.basename(wentLive[1]?.dir ?? '') });
    const [first, indexed] = wentLive.map((build) => build.dir);
    expect(fs.statSync(path.join(indexed ?? '', 'index.html')).ino).toBe(fs.statSync(path.join(first ?? '', 'index.html')).ino);
    expect(fs.readFileSync(path.join(indexed ?? '', 'pagefind', 'pagefind.js'), 'utf8')).toBe('index 1');
  });

  it('keeps the pages live when Pagefind fails, says why in the log, and indexes again at the next publish', async () => {
    const { runner, calls } = fakeRunner({});
    const indexSearch = runner.indexSearch!;
    let failNext = true;
    runner.indexSearch = async (dir, config, signal) => {
      if (!failNext) return indexSearch(dir, config, signal);
      failNext = false;
      return { ok: false, log: `$ pagefind_extended --site ${dir}\nRunning Pagefind\nError: could not write the index: No space left on device\n\n` };
    };
    const { publisher, publish } = await publishWith(runner);
    const first = await publish();
    // Not "updating" for ever: the admin reads that the index is behind, and nothing polls for it.
    expect(first).toMatchObject({ state: 'idle', search: 'stale' });
    expect(fs.existsSync(path.join(ctx.config.buildsDir, first.currentBuildId ?? '', 'page.html'))).toBe(true);
    expect(ctx.logLines.some((line) => line.includes('the search index was not updated: Error: could not write the index: No space left on device'))).toBe(
      true,
    );
    insertSection(ctx.db, 'news', { title: 'Later', order: 1 });
    publisher.schedule('an edit');
    await publisher.whenIdle();
    expect(publisher.status()).toMatchObject({ state: 'idle', search: 'updated' });
    expect(calls.index).toBe(1);
  });

  it('falls back to a full build in the same publish when the render fails, and the site goes live whole', async () => {
    const { runner, calls } = fakeRunner({ renderFails: true });
    const { publish } = await publishWith(runner);
    await publish();
    insertSection(ctx.db, 'news', { title: 'New', order: 1 });
    const status = await publish();
    expect(status.state).toBe('idle');
    expect(calls).toMatchObject({ full: 2, render: 1 });
    const liveDir = path.join(ctx.config.buildsDir, status.currentBuildId ?? '');
    expect(fs.readFileSync(path.join(liveDir, 'page.html'), 'utf8')).toBe('page 2');
    expect(ctx.logLines.some((line) => line.includes('incremental render failed'))).toBe(true);
  });

  it('ends the search indexing in progress when a change arrives: the change goes live first, the index follows it', async () => {
    const { runner, calls } = fakeRunner({});
    const { publisher } = await publishWith(runner);
    publisher.schedule('first');
    await publisher.whenIdle();
    expect(calls.index).toBe(1);
    const held = holdNextIndex(runner);
    insertSection(ctx.db, 'news', { title: 'One', order: 1 });
    publisher.schedule('an edit');
    await held.started;
    expect(publisher.status()).toMatchObject({ state: 'idle', search: 'updating' });
    // The next edit does not wait for that index: it ends it and is published.
    insertSection(ctx.db, 'news', { title: 'Two', order: 2 });
    publisher.schedule('the next edit');
    await publisher.whenIdle();
    expect(held.aborted()).toBe(1);
    expect(calls).toMatchObject({ full: 1, render: 2, index: 2 });
    expect(publisher.status()).toMatchObject({ state: 'idle', search: 'updated' });
    // Said as what it is, not as a failure.
    expect(ctx.logLines.some((line) => line.includes('the search index gave way to a newer publish'))).toBe(true);
    expect(ctx.logLines.some((line) => line.includes('search index was not updated'))).toBe(false);
  });

  it('marks only the indexed copy as indexed (not the next build, which links it), and a stop ends the indexing', async () => {
    const { runner, calls } = fakeRunner({});
    const { publisher, publish } = await publishWith(runner);
    await publish();
    const indexed = findCurrentBuild(ctx.config)!;
    expect(hasOwnSearchIndex(indexed)).toBe(true);
    const held = holdNextIndex(runner);
    insertSection(ctx.db, 'news', { title: 'One', order: 1 });
    publisher.schedule('an edit');
    await held.started;
    // Live with the previous index linked in, and its marker linked too: that marker names the other build.
    const behind = findCurrentBuild(ctx.config)!;
    expect(behind.id).not.toBe(indexed.id);
    expect(fs.existsSync(path.join(behind.dir, 'pagefind', 'pagefind.js'))).toBe(true);
    expect(hasOwnSearchIndex(behind)).toBe(false);
    // A stop does not wait for Pagefind to finish an index it would throw away.
    publisher.stop();
    await publisher.whenIdle();
    expect(calls.index).toBe(1);
    expect(findCurrentBuild(ctx.config)?.id).toBe(behind.id);
    expect(ctx.logLines.some((line) => line.includes('the search index was left unfinished by the stop; the next start makes it'))).toBe(true);
  });

  it('makes the index on start when the live build lacks its own, and a change arriving meanwhile goes first', async () => {
    const { runner, calls } = fakeRunner({});
    const { publish } = await publishWith(runner);
    await publish();
    // The last run ended before its index was made: the live build's marker is gone.
    const live = findCurrentBuild(ctx.config)!;
    fs.rmSync(path.join(live.dir, SEARCH_INDEXED_FILE));
    const held = holdNextIndex(runner);
    const { publisher } = await publishWith(runner);
    publisher.resumeSearchIndex();
    await held.started;
    expect(publisher.status()).toMatchObject({ state: 'idle', search: 'updating', currentBuildId: live.id });
    insertSection(ctx.db, 'news', { title: 'Meanwhile', order: 1 });
    publisher.schedule('an edit');
    await publisher.whenIdle();
    // The edit was rendered and went live, then the index was made from its pages.
    expect(calls).toMatchObject({ full: 2, index: 2 });
    const after = findCurrentBuild(ctx.config)!;
    expect(hasOwnSearchIndex(after)).toBe(true);
    expect(publisher.status()).toMatchObject({ state: 'idle', search: 'updated' });
    // Once it has its own index, a start makes none.
    const restarted = (await publishWith(runner)).publisher;
    restarted.resumeSearchIndex();
    await restarted.whenIdle();
    expect(calls.index).toBe(2);
  });

  it('an index made on start is no publish: nothing is reported built and no build process is prepared', async () => {
    const { runner, calls } = fakeRunner({});
    const { publish } = await publishWith(runner);
    await publish();
    fs.rmSync(path.join(findCurrentBuild(ctx.config)!.dir, SEARCH_INDEXED_FILE));
    let prepared = 0;
    runner.prepare = async () => {
      prepared++;
      return true;
    };
    const { publisher } = await publishWith(runner);
    publisher.resumeSearchIndex();
    await publisher.whenIdle();
    expect(calls.index).toBe(2);
    expect(hasOwnSearchIndex(findCurrentBuild(ctx.config)!)).toBe(true);
    // A restart idles as small as one that had nothing to index (the bench's production recipe measures it).
    expect(prepared).toBe(0);
    expect(publisher.status()).toMatchObject({ state: 'idle', search: 'updated', lastSuccess: null });
    // A publish afterwards prepares the next one as always.
    insertSection(ctx.db, 'news', { title: 'Later', order: 1 });
    publisher.schedule('an edit');
    await publisher.whenIdle();
    expect(prepared).toBe(1);
  });

  it('builds in full when asked to', async () => {
    const { runner, calls } = fakeRunner({});
    const { publisher } = await publishWith(runner);
    publisher.schedule('first');
    await publisher.whenIdle();
    publisher.schedule('admin', { full: true });
    await publisher.whenIdle();
    expect(calls).toMatchObject({ full: 2, render: 0 });
  });

  it('builds in full for a full request taken by another serving process, and incrementally for an ordinary one', async () => {
    const { runner, calls } = fakeRunner({});
    const primary = createPrimaryPublisher({ config: ctx.config, db: ctx.db, log: ctx.log, runBuild: runner, onLive: () => {} });
    const remote = createRemotePublisher({ db: ctx.db, log: ctx.log, notifyPrimary: (reason) => primary.takeUp(reason) });
    remote.schedule('first');
    await primary.publisher.whenIdle();
    insertSection(ctx.db, 'news', { title: 'Edited', order: 1 });
    remote.schedule('a content edit');
    await primary.publisher.whenIdle();
    expect(calls).toMatchObject({ full: 1, render: 1 });
    remote.schedule('the admin asked', { full: true });
    await primary.publisher.whenIdle();
    expect(calls).toMatchObject({ full: 2, render: 1 });
    // Taken up once: the next ordinary request is incremental again.
    insertSection(ctx.db, 'news', { title: 'Edited again', order: 2 });
    remote.schedule('another edit');
    await primary.publisher.whenIdle();
    expect(calls).toMatchObject({ full: 2, render: 2 });
  });
});

describe('the dependency map', () => {
  it('names a section page and its feeds for a post edit, the whole namespace for its navigation, and full for the site name', () => {
    const section = insertSection(ctx.db, 'documentation', { title: 'Guides', order: 1 });
    const other = insertSection(ctx.db, 'documentation', { title: 'Reference', order: 2 });
    insertPost(ctx.db, 'documentation', { section_id: section.id, title: 'One', body: 'a', published: true, display_order: 1, user_id: null });
    const before = exportSnapshot(ctx.db, ctx.config);
    const edited = structuredClone(before);
    const post = edited.namespaces.documentation.find((entry) => entry.id === other.id);
    expect(post).toBeDefined();
    edited.namespaces.documentation[1]!.posts = [{ ...edited.namespaces.documentation[0]!.posts[0]!, id: 999, title_slug: 'two' }];
    const live = ['/', '/documentation', '/documentation/guides', '/documentation/reference', '/contact', '/some-new-page'];
    expect(affectedRoutes(before, edited, live)).toEqual({
      kind: 'routes',
      paths: ['/documentation', '/documentation/reference', '/documentation/reference/rss.xml', '/sitemap.xml', '/some-new-page'],
    });
    const renamed = structuredClone(before);
    renamed.namespaces.documentation[0]!.title = 'Guides, renamed';
    const nav = affectedRoutes(before, renamed, live);
    expect(nav.kind === 'routes' && nav.paths).toEqual(
      expect.arrayContaining(['/documentation/guides', '/documentation/reference', '/documentation/guides/rss.xml']),
    );
    expect(affectedRoutes(before, { ...before, site: { ...before.site, name: 'Other' } }, live).kind).toBe('full');
    expect(affectedRoutes(before, before, live)).toEqual({ kind: 'routes', paths: ['/some-new-page'] });
  });

  it('names /contact for the contact details and each legal page for its own text', () => {
    ensureLegalPages(ctx.db);
    const before = exportSnapshot(ctx.db, ctx.config);
    const live = ['/', '/contact', '/privacy', '/terms', '/imprint'];
    const contact = structuredClone(before);
    contact.contact = { ...contact.contact, phone: '+44 20 7946 0000' };
    expect(affectedRoutes(before, contact, live)).toEqual({ kind: 'routes', paths: ['/contact', '/sitemap.xml'] });
    const legal = structuredClone(before);
    legal.legal_pages = [
      { slug: 'terms', title: 'Terms of Use', body: 'New terms.', updated_at: before.generated_at },
      ...legal.legal_pages.filter((page) => page.slug !== 'terms'),
    ];
    expect(affectedRoutes(before, legal, live)).toEqual({ kind: 'routes', paths: ['/sitemap.xml', '/terms'] });
  });
});
