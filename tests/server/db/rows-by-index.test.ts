// The hot reads are prepared once and must stay planned once: a statement whose plan SQLite chose by looking
// at a bound value is planned again on every run under better-sqlite3 (server/db/rows-by-index.ts says why,
// docs/decisions/0060-statements-planned-once.md measures it). So the joined reads by a key look their first
// table's rows up by rowid through an index subquery, and the update feeds' releases bind nothing. These tests
// hold both halves: each read returns exactly the rows it names, its plan reads every table by a key (never a
// scan) with the first table by rowid, and the releases' statements carry no bound value.
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/client.ts';
import { getSessionWithUser, insertSession } from '../../../server/db/queries/sessions.ts';
import { insertUser } from '../../../server/db/queries/users.ts';
import { constantLiteral } from '../../../server/db/rows-by-index.ts';
import * as schema from '../../../server/db/schema.ts';
import { ensureLicenseTypes, listLicenseTypes } from '../../../server/features/license-types/index.ts';
import { insertPost, insertSection, listPostsWithRelations } from '../../../server/features/content/queries.ts';
import { insertDownloadItem, insertReleaseFile, listVersionedReleases } from '../../../server/features/downloads/queries.ts';
import { claimDueRecipients, insertMailing, insertRecipients } from '../../../server/features/mailings/queries.ts';
import {
  findLicenseByKey,
  getLicenseForSoftware,
  getLicensesOfUser,
  insertLicense,
  insertMachine,
  listMachinesOfLicense,
} from '../../../server/features/licensing/queries.ts';

let db: Db;
beforeEach(() => {
  db = openDatabase(':memory:');
});
afterEach(() => db.$client.close());

function seed() {
  ensureLicenseTypes(db);
  const type = listLicenseTypes(db)[0];
  if (!type) throw new Error('no license type');
  const [ann, bob] = ['ann', 'bob'].map((name) => insertUser(db, { name, email: `${name}@example.com`, password_hash: 'x' }));
  if (!ann || !bob) throw new Error('no users');
  const license = (userId: number) => insertLicense(db, { license_type_id: type.id, user_id: userId, active: 1 });
  const annFirst = license(ann.id);
  const bobs = license(bob.id);
  const annSecond = license(ann.id);
  const machine = (licenseId: number, fingerprint: string, at: string) =>
    insertMachine(db, {
      license_id: licenseId,
      fingerprint,
      name: fingerprint,
      platform: 'linux',
      activated_at: at,
      last_check_in_at: at,
      lease_expires_at: '2027-01-01T00:00:00.000Z',
    });
  machine(annFirst.id, 'later', '2026-02-01T00:00:00.000Z');
  machine(bobs.id, 'bobs', '2026-01-01T00:00:00.000Z');
  machine(annFirst.id, 'earlier', '2026-01-01T00:00:00.000Z');
  const session = (id: string, userId: number) =>
    insertSession(db, {
      id,
      public_id: `public-${id}`,
      user_id: userId,
      expires_at: Date.now() + 60_000,
      absolute_expires_at: Date.now() + 60_000,
      persistent: false,
      ip: null,
      user_agent: null,
      last_active_at: Date.now(),
      created_at: new Date().toISOString(),
    });
  session('a'.repeat(64), ann.id);
  session('b'.repeat(64), bob.id);
  const [guides, notes] = ['Guides', 'Notes'].map((title, order) => insertSection(db, 'news', { title, order }));
  if (!guides || !notes) throw new Error('no sections');
  const post = (section_id: number, title: string, display_order: number, published = true) =>
    insertPost(db, 'news', { section_id, title, body: title, published, display_order, user_id: ann.id });
  post(guides.id, 'Second guide', 2);
  post(notes.id, 'A note', 1);
  post(guides.id, 'First guide', 1);
  post(guides.id, 'Draft guide', 0, false);
  const release = (version: string | null, downloadable: 0 | 1, released_at: string) =>
    insertDownloadItem(db, { title: `Suite ${version ?? 'unversioned'}`, version, downloadable, released_at });
  const files = (item: { id: number }, name: string) =>
    insertReleaseFile(db, { download_item_id: item.id, name, stored_name: `${name}.bin`, size: 1, sha256: 'a'.repeat(64) });
  files(release('1.0.0', 1, '2026-01-01T00:00:00.000Z'), 'one');
  files(release('2.0.0', 1, '2026-02-01T00:00:00.000Z'), 'two');
  files(release('3.0.0', 0, '2026-03-01T00:00:00.000Z'), 'hidden');
  files(release(null, 1, '2026-04-01T00:00:00.000Z'), 'unversioned');
  return { ann, bob, annFirst, bobs, annSecond, guides };
}

describe('reads that find rows by an index and join', () => {
  it('return exactly the rows their key names', () => {
    const { ann, bob, annFirst, bobs, annSecond, guides } = seed();
    expect(getSessionWithUser(db, 'b'.repeat(64))?.user.email).toBe('bob@example.com');
    expect(getSessionWithUser(db, 'c'.repeat(64))).toBeUndefined();
    expect(findLicenseByKey(db, bobs.key ?? '')).toMatchObject({ id: bobs.id, user_id: bob.id, owner_email: 'bob@example.com' });
    expect(findLicenseByKey(db, 'DCTL-NOPE')).toBeUndefined();
    expect(getLicensesOfUser(db, ann.id).map((license) => license.id)).toEqual([annFirst.id, annSecond.id]);
    expect(getLicensesOfUser(db, 999)).toEqual([]);
    expect(listMachinesOfLicense(db, annFirst.id).map((machine) => machine.fingerprint)).toEqual(['earlier', 'later']);
    expect(listMachinesOfLicense(db, annSecond.id)).toEqual([]);
    expect(getLicenseForSoftware(db, bobs.id)).toMatchObject({ id: bobs.id, owner_email: 'bob@example.com' });
    expect(getLicenseForSoftware(db, 999)).toBeUndefined();
    expect(listPostsWithRelations(db, 'news', { includeUnpublished: false, sectionId: guides.id }).map((post) => post.title)).toEqual([
      'First guide',
      'Second guide',
    ]);
    expect(listPostsWithRelations(db, 'news', { includeUnpublished: true, sectionId: guides.id }).map((post) => post.title)).toEqual([
      'Draft guide',
      'First guide',
      'Second guide',
    ]);
    expect(listPostsWithRelations(db, 'news', { includeUnpublished: false }).map((post) => post.title)).toEqual(['First guide', 'Second guide', 'A note']);
    expect(listPostsWithRelations(db, 'tutorials', { includeUnpublished: true })).toEqual([]);
    expect(listVersionedReleases(db).map((release) => [release.version, release.files.map((file) => file.name)])).toEqual([
      ['2.0.0', ['two']],
      ['1.0.0', ['one']],
    ]);
  });

  it('read every table by a key, the first one by rowid, and scan none', () => {
    seed();
    let last = '';
    const logged = drizzle(db.$client, { schema, logger: { logQuery: (sql) => (last = sql) } }) as unknown as Db;
    const plans: Record<string, string[]> = {};
    const planOf = (name: string, run: () => unknown, ...params: unknown[]) => {
      run();
      plans[name] = (db.$client.prepare(`explain query plan ${last}`).all(...params) as { detail: string }[]).map((row) => row.detail);
    };
    planOf('session', () => getSessionWithUser(logged, 'x'), 'x');
    planOf('license by key', () => findLicenseByKey(logged, 'x'), 'x');
    planOf('licenses of a user', () => getLicensesOfUser(logged, 1), 1);
    planOf('machines of a license', () => listMachinesOfLicense(logged, 1), 1);
    planOf('license by id', () => getLicenseForSoftware(logged, 1), 1);
    planOf('published posts of a section', () => listPostsWithRelations(logged, 'news', { includeUnpublished: false, sectionId: 1 }), 'news', 1);
    planOf('posts of a namespace', () => listPostsWithRelations(logged, 'news', { includeUnpublished: true }), 'news');

    for (const [name, plan] of Object.entries(plans)) {
      expect(plan[0], name).toMatch(/^SEARCH \w+ USING INTEGER PRIMARY KEY \(rowid=\?\)$/);
      expect(
        plan.filter((step) => step.startsWith('SCAN')),
        name,
      ).toEqual([]);
    }
  });

  it("claim a mailing's batch off the index in the claim's order, sorting no due row (docs/decisions/0075-mailing-lanes-across-batches.md)", () => {
    const { ann, bob } = seed();
    const [first, second] = ['First', 'Second'].map((title) => insertMailing(db, { title, body: title, created_by: ann.id, atIso: new Date().toISOString() }));
    if (!first || !second) throw new Error('no mailings');
    const both = [bob, ann].map((user) => ({ user_id: user.id, email: user.email }));
    insertRecipients(db, second.id, both, 0);
    insertRecipients(db, first.id, both, 0);
    let last = '';
    const logged = drizzle(db.$client, { schema, logger: { logQuery: (sql) => (last = sql) } }) as unknown as Db;
    const claimed = claimDueRecipients(logged, { now: 1, limit: 3, leaseUntil: 100 });
    expect(claimed.map((row) => [row.mailing_id, row.user_id])).toEqual([
      [first.id, ann.id],
      [first.id, bob.id],
      [second.id, ann.id],
    ]);
    const plan = (db.$client.prepare(`explain query plan ${last}`).all(100, 1) as { detail: string }[]).map((row) => row.detail);
    expect(plan).toContain('SEARCH mailing_recipients USING COVERING INDEX mailing_recipients_due_idx (status=? AND next_attempt_at<?)');
    // A sorter here reads every due row of a mailing on every claim: ten thousand recipients, ten thousand rows a batch.
    expect(plan.filter((step) => step.includes('TEMP B-TREE'))).toEqual([]);
  });

  it("bind no value in the update feeds' reads of every versioned release and file", () => {
    seed();
    const statements: { sql: string; params: unknown[] }[] = [];
    const logged = drizzle(db.$client, { schema, logger: { logQuery: (sql, params) => statements.push({ sql, params }) } }) as unknown as Db;
    expect(listVersionedReleases(logged).map((release) => release.version)).toEqual(['2.0.0', '1.0.0']);
    expect(statements).toHaveLength(2);
    for (const { sql, params } of statements) {
      expect(sql).toMatch(/"downloadable" = 1/);
      expect(sql).not.toContain('?');
      expect(params).toEqual([]);
    }
  });

  it('write only integers and plain words into the SQL text as constants', () => {
    expect(constantLiteral(0)).toBe('0');
    expect(constantLiteral(10)).toBe('10');
    expect(constantLiteral('pending')).toBe("'pending'");
    for (const bad of ["x' or 1=1 --", 'Admin', 'two words', '', 1.5, Number.NaN, 2 ** 60]) expect(() => constantLiteral(bad)).toThrow(/constant/);
  });
});
