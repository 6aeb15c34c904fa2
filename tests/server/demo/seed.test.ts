// First-start seeding: license types, admin, demo content with every markdown feature, exactly once.
import { count } from 'drizzle-orm';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../../server/auth/passwords.ts';
import { DEMO_ADMIN_EMAIL, seedDatabase } from '../../../server/demo/seed.ts';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { downloadItems, homeImages, homeSections, licenseTypes, posts, releaseFiles, users } from '../../../server/db/schema.ts';
import { getUserByEmail } from '../../../server/db/queries/users.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

let ctx: TestContext | undefined;
afterEach(() => ctx?.cleanup());

const countOf = (c: TestContext, table: SQLiteTable) => c.db.select({ n: count() }).from(table).get()?.n ?? 0;

describe('seedDatabase', () => {
  it('creates a demo admin with a generated password outside production, once', async () => {
    ctx = createTestContext({ env: { NODE_ENV: 'development' } });
    const first = await seedDatabase(ctx);
    expect(first.seeded).toBe(true);
    expect(first.generatedAdmin?.email).toBe(DEMO_ADMIN_EMAIL);
    const admin = getUserByEmail(ctx.db, DEMO_ADMIN_EMAIL);
    expect(admin?.role).toBe('admin');
    expect(admin?.email_verified_at).toBeTruthy();
    expect(await verifyPassword(admin?.password_hash ?? '', first.generatedAdmin?.password ?? '')).toBe(true);

    const before = { users: countOf(ctx, users), posts: countOf(ctx, posts), home: countOf(ctx, homeSections) };
    const second = await seedDatabase(ctx);
    expect(second).toEqual({ seeded: false });
    expect({ users: countOf(ctx, users), posts: countOf(ctx, posts), home: countOf(ctx, homeSections) }).toEqual(before);
  });

  it('uses ADMIN_EMAIL and ADMIN_PASSWORD when set, with the e-mail verified', async () => {
    ctx = createTestContext({ env: { ADMIN_EMAIL: 'Boss@Example.com', ADMIN_PASSWORD: 'a-long-password', SEED_DEMO: 'false' } });
    const result = await seedDatabase(ctx);
    expect(result.generatedAdmin).toBeUndefined();
    const admin = getUserByEmail(ctx.db, 'boss@example.com');
    expect(admin?.role).toBe('admin');
    expect(admin?.email_verified_at).toBeTruthy();
    expect(await verifyPassword(admin?.password_hash ?? '', 'a-long-password')).toBe(true);
    expect(countOf(ctx, posts)).toBe(0);
  });

  it('creates no admin in production without ADMIN_EMAIL', async () => {
    ctx = createTestContext({ env: { NODE_ENV: 'production', SEED_DEMO: 'false' } });
    await seedDatabase(ctx);
    expect(countOf(ctx, users)).toBe(0);
    expect(countOf(ctx, licenseTypes)).toBe(2);
  });

  it('seeds license types, home sections with images, content in every namespace and two releases', async () => {
    ctx = createTestContext({ env: { NODE_ENV: 'development' } });
    await seedDatabase(ctx);
    expect(
      ctx.db
        .select({ name: licenseTypes.name })
        .from(licenseTypes)
        .all()
        .map((t) => t.name)
        .sort(),
    ).toEqual(['perpetual', 'trial']);
    expect(countOf(ctx, homeSections)).toBeGreaterThanOrEqual(2);
    const images = ctx.db.select().from(homeImages).all();
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      const urls = JSON.parse(image.urls) as Record<string, string>;
      expect(Object.keys(urls).sort()).toEqual(['lg', 'thumb']);
      expect(fs.existsSync(path.join(ctx.config.uploadsDir, urls.lg!.replace('/media/', '')))).toBe(true);
    }
    for (const namespace of ['news', 'documentation', 'tutorials'] as const) {
      const bodies = ctx.db
        .select()
        .from(posts)
        .all()
        .filter((p) => p.namespace === namespace && p.published === 1)
        .map((p) => p.body)
        .join('\n');
      expect(bodies, `${namespace} shows inline math`).toMatch(/\$[^$\n]+\$/);
      expect(bodies, `${namespace} shows block math`).toMatch(/\$\$\n/);
      expect(bodies, `${namespace} shows emoji`).toMatch(/:[a-z_]+:/);
      expect(bodies, `${namespace} shows highlight`).toMatch(/==[^=]+==/);
      expect(bodies, `${namespace} shows an autolink`).toMatch(/https:\/\/\S+/);
      expect(bodies, `${namespace} shows quotes`).toMatch(/"[^"]+"/);
      expect(bodies, `${namespace} shows embedded HTML`).toMatch(/<div[^>]*>/);
    }
    const releases = ctx.db.select().from(downloadItems).all();
    expect(releases.length).toBeGreaterThanOrEqual(3);
    // Issue 25: versions, a beta and an entitled release, files per platform, every file on disk.
    expect(releases.some((release) => release.channel === 'beta')).toBe(true);
    expect(releases.some((release) => release.entitlement !== null)).toBe(true);
    expect(releases.every((release) => release.version !== null)).toBe(true);
    const files = ctx.db.select().from(releaseFiles).all();
    expect(new Set(files.map((file) => file.platform))).toEqual(new Set(['any', 'windows', 'macos', 'linux']));
    for (const release of releases) expect(files.some((file) => file.download_item_id === release.id)).toBe(true);
    for (const file of files) expect(fs.existsSync(path.join(ctx.config.privateFilesDir, 'downloads', file.stored_name))).toBe(true);
  });
});
