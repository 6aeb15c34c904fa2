// GET /api/admin/sitemap shows the live build's sitemap (entries, priorities, lastmod); POST regenerates it
// by scheduling a publish.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSitemap } from '../../../../server/features/sitemap/sitemap-file.ts';
import type { Publisher, PublishStatus } from '../../../../server/publish/types.ts';
import { createAdminFixture, json, type AdminFixture } from '../../admin/admin-fixture.ts';

const BUILD_ID = '20260101T120000000Z-000';
const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>http://localhost:4321/news/releases</loc><lastmod>2026-01-01</lastmod><priority>0.8</priority></url>
  <url><loc>http://localhost:4321/news/releases#version-9&amp;more</loc><lastmod>2026-01-01</lastmod><changefreq>weekly</changefreq><priority>0.6</priority></url>
  <url><loc>http://localhost:4321/</loc></url>
</urlset>`;

describe('parseSitemap', () => {
  it('reads loc, priority, lastmod and changefreq, decoding entities', () => {
    expect(parseSitemap(SITEMAP)).toEqual([
      { loc: 'http://localhost:4321/news/releases', lastmod: '2026-01-01', priority: 0.8, changefreq: null },
      { loc: 'http://localhost:4321/news/releases#version-9&more', lastmod: '2026-01-01', priority: 0.6, changefreq: 'weekly' },
      { loc: 'http://localhost:4321/', lastmod: null, priority: null, changefreq: null },
    ]);
    expect(parseSitemap('not xml')).toEqual([]);
  });
});

describe('the sitemap API', () => {
  let fixture: AdminFixture;
  let status: PublishStatus;
  const reasons: string[] = [];
  beforeEach(async () => {
    status = { state: 'idle', pending: false, currentBuildId: null, lastSuccess: null, lastFailure: null };
    reasons.length = 0;
    const publisher: Publisher = { schedule: (reason) => void reasons.push(reason), status: () => status, whenIdle: async () => {} };
    fixture = await createAdminFixture({ publisher });
  });
  afterEach(() => fixture.ctx.cleanup());

  const buildDir = () => path.join(fixture.ctx.config.buildsDir, BUILD_ID);

  it('says so when there is no build yet, or the build has no sitemap', async () => {
    const none = await json(await fixture.admin.request('GET', '/api/admin/sitemap'));
    expect(none).toMatchObject({ build_id: null, xml: null, entries: [], message: 'The site has not been built yet.', publish: { state: 'idle' } });
    fs.mkdirSync(buildDir(), { recursive: true });
    status.currentBuildId = BUILD_ID;
    expect(await json(await fixture.admin.request('GET', '/api/admin/sitemap'))).toMatchObject({ build_id: BUILD_ID, xml: null, message: 'The live site has no sitemap yet.' });
  });

  it('answers the live build’s sitemap.xml as text and as entries', async () => {
    fs.mkdirSync(buildDir(), { recursive: true });
    fs.writeFileSync(path.join(buildDir(), 'sitemap.xml'), SITEMAP);
    status.currentBuildId = BUILD_ID;
    const body = await json<{ xml: string; file: string; entries: unknown[] }>(await fixture.admin.request('GET', '/api/admin/sitemap'));
    expect(body.file).toBe('sitemap.xml');
    expect(body.xml).toBe(SITEMAP);
    expect(body.entries).toHaveLength(3);
  });

  it('follows a sitemap index to its parts in the build, and nowhere else', async () => {
    fs.mkdirSync(buildDir(), { recursive: true });
    fs.writeFileSync(path.join(fixture.ctx.config.buildsDir, 'secret.xml'), SITEMAP);
    fs.writeFileSync(path.join(buildDir(), 'sitemap-0.xml'), SITEMAP);
    fs.writeFileSync(
      path.join(buildDir(), 'sitemap-index.xml'),
      '<sitemapindex><sitemap><loc>http://localhost:4321/sitemap-0.xml</loc></sitemap><sitemap><loc>http://localhost:4321/../secret.xml</loc></sitemap><sitemap><loc>http://localhost:4321/sub/../../secret.xml</loc></sitemap></sitemapindex>',
    );
    status.currentBuildId = BUILD_ID;
    const body = await json<{ file: string; entries: unknown[] }>(await fixture.admin.request('GET', '/api/admin/sitemap'));
    expect(body.file).toBe('sitemap-index.xml');
    // secret.xml's name passes, but it is looked up inside the build, where it does not exist.
    expect(body.entries).toHaveLength(3);
  });

  it('POST schedules a publish and answers 202 with the publish status', async () => {
    const response = await fixture.admin.request('POST', '/api/admin/sitemap');
    expect(response.status).toBe(202);
    expect(await json(response)).toMatchObject({ message: expect.stringContaining('regenerated'), publish: { state: 'idle', current_build_id: null } });
    expect(reasons).toEqual([expect.stringContaining('sitemap')]);
  });
});
