// plainRowsOf runs a whole-table select with better-sqlite3 alone (server/db/prepared.ts): its rows must be
// exactly what drizzle's own mapping returns, and a table or query where they would not be is refused.
import { asc, desc, eq, sql } from 'drizzle-orm';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../../server/db/client.ts';
import * as schema from '../../../server/db/schema.ts';
import { downloadItems, licenseMachines, releaseFiles } from '../../../server/db/schema.ts';
import { plainRowsOf } from '../../../server/db/prepared.ts';
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

describe('plainRowsOf', () => {
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

  it('refuses a table with a column drizzle decodes, one stored under another name, and a query that selects other columns', () => {
    const flags = sqliteTable('plain_rows_flags', { id: integer('id').primaryKey(), on: integer('on', { mode: 'boolean' }).notNull() });
    const renamed = sqliteTable('plain_rows_renamed', { id: integer('id').primaryKey(), createdAt: text('created_at') });
    ctx.db.$client.exec(
      'CREATE TABLE plain_rows_flags (id INTEGER PRIMARY KEY, "on" INTEGER NOT NULL); CREATE TABLE plain_rows_renamed (id INTEGER PRIMARY KEY, created_at TEXT)',
    );
    expect(() => plainRowsOf(ctx.db, flags, ctx.db.select().from(flags))).toThrow(/plain_rows_flags\.on is decoded by drizzle/);
    expect(() => plainRowsOf(ctx.db, renamed, ctx.db.select().from(renamed))).toThrow(/plain_rows_renamed\.createdAt is stored as created_at/);
    expect(() => plainRowsOf(ctx.db, releaseFiles, ctx.db.select({ id: releaseFiles.id, name: releaseFiles.name }).from(releaseFiles))).toThrow(
      /selects id, name, not every column of release_files/,
    );
  });
});
