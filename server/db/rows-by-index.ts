// The hot reads are written so that SQLite plans them once, not on every run. better-sqlite3 clears a
// statement's bindings after each run (sqlite3_clear_bindings), and SQLite (3.54, as better-sqlite3 bundles it)
// marks a statement for re-preparation whenever its planner looked at a bound value while choosing the plan,
// which it does for an equality in a join or beside an ORDER BY or LIMIT (`… join … where licenses.key = ?`,
// `where posts.section_id = ? order by …`, `where downloadable = ? order by …`). Cleared bindings of such a
// statement expire it, so every run parses and plans it again: counted with sqlite3_stmt_status(REPREPARE) on
// this SQLite, 4 re-preparations in 5 runs for each of those shapes, 0 for the shapes below
// (docs/decisions/0060-statements-planned-once.md). Measured on a copy of a bench database, the session with its
// user 25 µs vs 3.8 µs, a license by key with its type and owner 18 µs vs 3.6 µs, a section's published posts
// with their relations 146 µs vs 74 µs, the update feed's versioned releases 64 µs vs 34 µs a read.
//
// Two shapes keep the planner away from bound values:
// - a lookup by a key names its rows by rowid through a subquery (`rowsByIndex`): the subquery is a plain
//   single-table equality, which SQLite plans without looking at the value, and the join around it binds nothing;
// - a value the code fixes (a flag that is always 1, the status 'pending', a batch's size) is written into the
//   SQL as a literal (`equalsConstant`, or a LIMIT in the SQL text), not bound.
// tests/server/db/rows-by-index.test.ts holds the hot reads to these shapes.
import { sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';

/**
 * `table.rowid in (select rowid from table where condition)`: the rows of `table` that `condition`
 * (written on `table`'s columns, usually an index's equality) selects, for the where clause of a join.
 */
export function rowsByIndex(table: SQLiteTable, condition: SQL | undefined): SQL {
  return sql`${table}.rowid in (select rowid from ${table} where ${condition})`;
}

/**
 * `column = value` with the value in the SQL text: for a constant the code fixes, which the planner may then
 * read without planning again. Never for a value from outside: a string must be a plain word, an integer an
 * integer, or it throws, so nothing can be spliced into the SQL through it.
 */
export function equalsConstant(column: SQLiteColumn, value: number | string): SQL {
  return sql`${column} = ${sql.raw(constantLiteral(value))}`;
}

/** The SQL literal of a constant the code fixes: an integer, or a plain lower-case word in quotes. */
export function constantLiteral(value: number | string): string {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`not an integer constant: ${value}`);
    return String(value);
  }
  if (!/^[a-z_]+$/.test(value)) throw new Error(`not a plain word constant: ${JSON.stringify(value)}`);
  return `'${value}'`;
}
