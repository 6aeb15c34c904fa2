// The hottest joined reads find their first table's row through an index (a session by its id, a license
// by its key, a user's licenses by user_id) and then join the other tables. Written plainly
// (`… inner join … where licenses.key = ?`), SQLite (3.54, as better-sqlite3 bundles it) walks the index
// and reads the table row through a deferred seek, and that costs 3 to 7 times what the same join costs
// when the outer table is read by rowid: measured on a copy of a bench database with 10,000 users and
// 20,000 licenses, the session with its user 25 µs vs 3.8 µs, a license by key with its type and owner
// 18 µs vs 3.6 µs, a user's licenses with their types 19 µs vs 6.4 µs; even a license's machines alone,
// sorted, 8.7 µs vs 5.7 µs (every request of the licensing and update APIs, and every signed-in request,
// makes one or two of these reads). So such a read names its rows by rowid, looked up in the index by a
// subquery: the same rows, the same plan for every other table.
import { sql, type SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';

/**
 * `table.rowid in (select rowid from table where condition)`: the rows of `table` that `condition`
 * (written on `table`'s columns, usually an index's equality) selects, for the where clause of a join.
 */
export function rowsByIndex(table: SQLiteTable, condition: SQL | undefined): SQL {
  return sql`${table}.rowid in (select rowid from ${table} where ${condition})`;
}
