// A single-row write with RETURNING outside a transaction (Drizzle's `.returning().get()`, used by most
// insert and update queries) commits when better-sqlite3 resets the statement. A commit that fails there
// (SQLITE_FULL on a full disk, found by tests/server/drills/full-disk.test.ts) used to be ignored: the row
// came back, the caller answered 201, and the row was gone. A deferred foreign key fails the commit the
// same way on any machine, so it stands in for the full disk here.
import { count, eq } from 'drizzle-orm';
import { integer, sqliteTable } from 'drizzle-orm/sqlite-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db/client.ts';

const parents = sqliteTable('drill_parents', { id: integer('id').primaryKey() });
const children = sqliteTable('drill_children', { id: integer('id').primaryKey(), parent: integer('parent').notNull() });

let db: Db;
beforeEach(() => {
  db = openDatabase(':memory:');
  db.$client.exec(`
    CREATE TABLE drill_parents (id INTEGER PRIMARY KEY);
    CREATE TABLE drill_children (id INTEGER PRIMARY KEY, parent INTEGER NOT NULL REFERENCES drill_parents(id) DEFERRABLE INITIALLY DEFERRED);
  `);
});
afterEach(() => db.$client.close());

const childCount = () => db.select({ n: count() }).from(children).get()?.n;

describe('single-row writes whose commit fails', () => {
  it('throw instead of returning a row that was never saved', () => {
    expect(() => db.insert(children).values({ parent: 42 }).returning().get()).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }));
    expect(childCount()).toBe(0);
    expect(db.$client.inTransaction).toBe(false);
  });

  it('throw through better-sqlite3 directly too, in raw mode as well', () => {
    const insert = db.$client.prepare('INSERT INTO drill_children (parent) VALUES (?) RETURNING id');
    expect(() => insert.get(42)).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }));
    expect(() => insert.raw().get(42)).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }));
    expect(childCount()).toBe(0);
  });

  it('still return the row when the commit succeeds, and reads are untouched', () => {
    db.insert(parents).values({ id: 1 }).run();
    const child = db.insert(children).values({ parent: 1 }).returning().get();
    expect(child).toEqual({ id: 1, parent: 1 });
    expect(db.update(children).set({ parent: 1 }).where(eq(children.id, 99)).returning().get()).toBeUndefined();
    expect(db.$client.prepare('INSERT INTO drill_children (parent) VALUES (1) RETURNING id, parent').raw().get()).toEqual([2, 1]);
    expect(db.select().from(children).where(eq(children.id, 2)).get()).toEqual({ id: 2, parent: 1 });
    expect(childCount()).toBe(2);
  });
});
