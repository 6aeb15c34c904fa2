// The hottest joined reads look their first table's rows up by rowid through an index subquery
// (server/db/rows-by-index.ts says why: a plain indexed join costs 3 to 7 times as much in SQLite). These
// tests hold both halves: each read returns exactly the rows it names, and its plan reads every table by a
// key, never by a scan, with the first table by rowid.
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/client.ts';
import { getSessionWithUser, insertSession } from '../../../server/db/queries/sessions.ts';
import { insertUser } from '../../../server/db/queries/users.ts';
import * as schema from '../../../server/db/schema.ts';
import { ensureLicenseTypes, listLicenseTypes } from '../../../server/features/license-types/index.ts';
import { findLicenseByKey, getLicensesOfUser, insertLicense, insertMachine, listMachinesOfLicense } from '../../../server/features/licensing/queries.ts';

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
  return { ann, bob, annFirst, bobs, annSecond };
}

describe('reads that find rows by an index and join', () => {
  it('return exactly the rows their key names', () => {
    const { ann, bob, annFirst, bobs, annSecond } = seed();
    expect(getSessionWithUser(db, 'b'.repeat(64))?.user.email).toBe('bob@example.com');
    expect(getSessionWithUser(db, 'c'.repeat(64))).toBeUndefined();
    expect(findLicenseByKey(db, bobs.key ?? '')).toMatchObject({ id: bobs.id, user_id: bob.id, owner_email: 'bob@example.com' });
    expect(findLicenseByKey(db, 'DCTL-NOPE')).toBeUndefined();
    expect(getLicensesOfUser(db, ann.id).map((license) => license.id)).toEqual([annFirst.id, annSecond.id]);
    expect(getLicensesOfUser(db, 999)).toEqual([]);
    expect(listMachinesOfLicense(db, annFirst.id).map((machine) => machine.fingerprint)).toEqual(['earlier', 'later']);
    expect(listMachinesOfLicense(db, annSecond.id)).toEqual([]);
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

    for (const [name, plan] of Object.entries(plans)) {
      expect(plan[0], name).toMatch(/^SEARCH \w+ USING INTEGER PRIMARY KEY \(rowid=\?\)$/);
      expect(
        plan.filter((step) => step.startsWith('SCAN')),
        name,
      ).toEqual([]);
    }
  });
});
