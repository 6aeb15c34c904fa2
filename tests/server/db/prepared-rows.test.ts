// preparedRows builds each row by steps worked out once for its select (server/db/prepared.ts): its rows must
// be exactly what drizzle's own mapping returns (nesting, key order, decoding, an outer join's missing row),
// for the product's hot reads and for shapes they do not use yet.
import { asc, desc, eq, sql } from 'drizzle-orm';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { downloadItems, licenseMachines, releaseFiles } from '../../../server/db/schema.ts';
import { preparedRows } from '../../../server/db/prepared.ts';
import { findLicenseByKey, getLicensesOfUser, licenseForSoftwareQuery } from '../../../server/features/licensing/queries.ts';
import { listPostsWithRelations } from '../../../server/features/content/queries.ts';
import { getSessionWithUser } from '../../../server/db/queries/sessions.ts';
import { insertContentFixture } from '../../helpers/content-fixture.ts';
import { listVersionedReleases } from '../../../server/features/downloads/queries.ts';
import { insertMachine, listMachinesOfLicense } from '../../../server/features/licensing/queries.ts';
import { createLicenseDirect } from '../../helpers/releases.ts';
import { createReleaseDirect, patternBytes } from '../../helpers/downloads.ts';
import { createUser } from '../../helpers/auth.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext();
});
afterEach(() => ctx.cleanup());

describe('preparedRows', () => {
  it('gives the update feeds the same releases and files as drizzle, nulls and all', () => {
    createReleaseDirect(ctx, { version: '1.0.0', entitlement: null, files: [{ name: 'a.exe', content: patternBytes(10), platform: 'windows', arch: 'x64' }] });
    createReleaseDirect(ctx, {
      version: '1.1.0-beta.1',
      channel: 'beta',
      entitlement: 'PRO',
      files: [
        { name: 'b.dmg', content: patternBytes(20), platform: 'macos', arch: 'universal' },
        { name: 'b.AppImage', content: patternBytes(30), platform: 'linux', arch: 'arm64' },
      ],
    });
    createReleaseDirect(ctx, { version: null, file: { name: 'old.zip', content: patternBytes(5) } });
    createReleaseDirect(ctx, { version: '0.9.0', downloadable: false });

    const versioned = eq(downloadItems.downloadable, 1);
    const items = ctx.db
      .select()
      .from(downloadItems)
      .where(sql`${versioned} and ${downloadItems.version} is not null`)
      .orderBy(desc(downloadItems.released_at), desc(downloadItems.id))
      .all();
    const files = ctx.db.select().from(releaseFiles).orderBy(asc(releaseFiles.download_item_id), asc(releaseFiles.id)).all();
    const expected = items.map((item) => ({ ...item, files: files.filter((file) => file.download_item_id === item.id) }));

    const listed = listVersionedReleases(ctx.db);
    expect(listed.map((release) => release.version)).toEqual(['1.1.0-beta.1', '1.0.0']);
    expect(listed).toEqual(expected);
    // Nulls stay null (not undefined), numbers stay numbers.
    expect(listed[1]?.entitlement).toBeNull();
    expect(listed[0]?.files[0]?.ed_signature).toBeNull();
    expect(typeof listed[0]?.files[0]?.size).toBe('number');
  });

  it("gives a license's machines in seat order with its placeholder filled in", async () => {
    const user = await createUser(ctx, { email: 'owner@example.com' });
    const license = createLicenseDirect(ctx, user.id);
    const other = createLicenseDirect(ctx, user.id);
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes)).toISOString();
    insertMachine(ctx.db, { license_id: license.id, fingerprint: 'late', activated_at: at(5), last_check_in_at: at(5), lease_expires_at: at(60) });
    insertMachine(ctx.db, {
      license_id: license.id,
      fingerprint: 'early',
      name: 'Desk',
      platform: 'linux',
      activated_at: at(1),
      last_check_in_at: at(1),
      lease_expires_at: at(60),
    });
    insertMachine(ctx.db, { license_id: other.id, fingerprint: 'elsewhere', activated_at: at(0), last_check_in_at: at(0), lease_expires_at: at(60) });

    const expected = ctx.db
      .select()
      .from(licenseMachines)
      .where(eq(licenseMachines.license_id, license.id))
      .orderBy(asc(licenseMachines.activated_at), asc(licenseMachines.id))
      .all();
    expect(listMachinesOfLicense(ctx.db, license.id)).toEqual(expected);
    expect(expected.map((machine) => machine.fingerprint)).toEqual(['early', 'late']);
    expect(listMachinesOfLicense(ctx.db, other.id).map((machine) => machine.fingerprint)).toEqual(['elsewhere']);
  });

  it("logs its statement and parameters through the connection's drizzle logger, as drizzle's own reads do", async () => {
    const logged: Array<{ sql: string; params: unknown[] }> = [];
    const sqlite = new Database(ctx.config.databaseFile, { readonly: true });
    try {
      const logging = drizzle(sqlite, { schema, logger: { logQuery: (query, params) => logged.push({ sql: query, params }) } }) as unknown as Db;
      listMachinesOfLicense(logging, 42);
      expect(logged).toEqual([{ sql: expect.stringMatching(/^select .* from "license_machines"/), params: [42] }]);
    } finally {
      sqlite.close();
    }
  });

  it('gives the rows drizzle gives for decoded, renamed, nested, aggregated and outer-joined fields, in the same key order', () => {
    const owners = sqliteTable('prepared_rows_owners', {
      id: integer('id').primaryKey(),
      fullName: text('full_name').notNull(),
      active: integer('active', { mode: 'boolean' }).notNull(),
      seenAt: integer('seen_at', { mode: 'timestamp' }),
      tags: text('tags', { mode: 'json' }).$type<string[]>(),
    });
    const things = sqliteTable('prepared_rows_things', { id: integer('id').primaryKey(), owner_id: integer('owner_id'), label: text('label').notNull() });
    ctx.db.$client.exec(`
      CREATE TABLE prepared_rows_owners (id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, active INTEGER NOT NULL, seen_at INTEGER, tags TEXT);
      CREATE TABLE prepared_rows_things (id INTEGER PRIMARY KEY, owner_id INTEGER, label TEXT NOT NULL);
      INSERT INTO prepared_rows_owners VALUES (1, 'Ada', 1, 1767225600, '["a","b"]'), (2, 'Bob', 0, NULL, NULL);
      INSERT INTO prepared_rows_things VALUES (10, 1, 'probe'), (11, NULL, 'orphan'), (12, 2, 'stylus'), (13, 99, 'lost');
    `);
    const shapes = [
      ctx.db.select().from(owners).orderBy(owners.id),
      ctx.db.select().from(things).orderBy(things.id),
      ctx.db.select().from(things).leftJoin(owners, eq(things.owner_id, owners.id)).orderBy(things.id),
      ctx.db.select().from(owners).innerJoin(things, eq(things.owner_id, owners.id)).orderBy(things.id),
      ctx.db
        .select({
          label: things.label,
          owner: { name: owners.fullName, active: owners.active, seen: owners.seenAt },
          listed: { tags: owners.tags, label: things.label },
          shout: sql<string>`upper(${things.label})`.as('shout'),
          doubled: sql`${things.id} * 2`.mapWith(Number),
        })
        .from(things)
        .leftJoin(owners, eq(things.owner_id, owners.id))
        .orderBy(things.id),
      ctx.db
        .select({ thing: things, owner: { id: owners.id, name: owners.fullName } })
        .from(things)
        .leftJoin(owners, eq(things.owner_id, owners.id))
        .orderBy(things.id),
    ];
    for (const shape of shapes) {
      const expected = shape.all();
      const rows = preparedRows(shape).all();
      expect(rows).toEqual(expected);
      // The answers are JSON: the key order is part of what clients get.
      expect(JSON.stringify(rows)).toBe(JSON.stringify(expected));
      expect(preparedRows(shape).get()).toEqual(shape.get());
    }
    // What the comparison rests on: decoded values, and an outer join's missing owner as null.
    const joined = preparedRows(ctx.db.select().from(things).leftJoin(owners, eq(things.owner_id, owners.id)).orderBy(things.id)).all();
    expect(joined.map((row) => row.prepared_rows_owners?.active ?? null)).toEqual([true, null, false, null]);
    expect(joined[0]?.prepared_rows_owners?.seenAt).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(joined[0]?.prepared_rows_owners?.tags).toEqual(['a', 'b']);
  });

  it("gives the product's hot reads (a license by key, a user's licenses, the session, a section's posts) as drizzle does", async () => {
    const user = await createUser(ctx, { email: 'hot@example.com' });
    const license = createLicenseDirect(ctx, user.id);
    createLicenseDirect(ctx, user.id);
    const key = license.key ?? '';
    expect(key).not.toBe('');
    expect(findLicenseByKey(ctx.db, key)?.owner_email).toBe('hot@example.com');
    expect(getLicensesOfUser(ctx.db, user.id)).toHaveLength(2);

    const { licenses, licenseTypes } = schema;
    // drizzle's own mapping of the product's select is the reference.
    const owner = licenseForSoftwareQuery(ctx.db).where(eq(licenses.key, key)).get();
    const { license: stored, ...terms } = owner ?? { license: undefined };
    expect(JSON.stringify(findLicenseByKey(ctx.db, key))).toBe(JSON.stringify({ ...stored, ...terms }));
    const withTypes = ctx.db
      .select({
        license: licenses,
        type: { name: licenseTypes.name, entitlements: licenseTypes.entitlements, floating: licenseTypes.floating, lease_minutes: licenseTypes.lease_minutes },
      })
      .from(licenses)
      .innerJoin(licenseTypes, eq(licenses.license_type_id, licenseTypes.id))
      .where(eq(licenses.user_id, user.id))
      .orderBy(asc(licenses.id))
      .all();
    expect(JSON.stringify(getLicensesOfUser(ctx.db, user.id))).toBe(
      JSON.stringify(withTypes.map(({ license: row, type }) => ({ ...row, license_type: type }))),
    );

    insertContentFixture(ctx.db);
    const section = ctx.db.select().from(schema.sections).where(eq(schema.sections.title, 'Releases')).get();
    const posts = listPostsWithRelations(ctx.db, 'news', { includeUnpublished: true, sectionId: section?.id });
    const expected = ctx.db
      .select({ post: schema.posts, section: schema.sections, file: schema.uploadedFiles, user: schema.users })
      .from(schema.posts)
      .innerJoin(schema.sections, eq(schema.posts.section_id, schema.sections.id))
      .leftJoin(schema.uploadedFiles, eq(schema.posts.uploaded_file_id, schema.uploadedFiles.id))
      .leftJoin(schema.users, eq(schema.posts.user_id, schema.users.id))
      .where(eq(schema.posts.section_id, section?.id ?? 0))
      .orderBy(asc(schema.posts.display_order), asc(schema.posts.id))
      .all();
    expect(posts.map((post) => post.title)).toEqual(expected.map((row) => row.post.title));
    expect(posts.map((post) => post.uploaded_file?.filename ?? null)).toEqual(expected.map((row) => row.file?.filename ?? null));
    expect(posts.map((post) => post.user?.name ?? null)).toEqual(expected.map((row) => row.user?.name ?? null));
    expect(posts.map(({ section: _section, uploaded_file: _file, user: _user, ...post }) => post)).toEqual(expected.map((row) => row.post));

    ctx.db.$client
      .prepare(
        'insert into sessions (id, public_id, user_id, expires_at, absolute_expires_at, persistent, last_active_at, created_at) values (?, ?, ?, ?, ?, 0, ?, ?)',
      )
      .run('hashed', 'pub', user.id, 9e12, 9e12, 1, '2026-01-01T00:00:00Z');
    const found = getSessionWithUser(ctx.db, 'hashed');
    const direct = ctx.db
      .select({ session: schema.sessions, user: schema.users })
      .from(schema.sessions)
      .innerJoin(schema.users, eq(schema.sessions.user_id, schema.users.id))
      .get();
    expect(JSON.stringify(found)).toBe(JSON.stringify(direct));
    expect(getSessionWithUser(ctx.db, 'no such session')).toBeUndefined();
  });
});
