// Prepared statements for the hottest reads: the session with its user (every signed-in request), a
// user's licenses, a section by slug and the posts of a section. For reads this small, building the
// drizzle query and preparing its SQL costs more than running it, so each statement is built once per
// database connection, with placeholders, and afterwards only executed. `npm run bench` shows what this
// buys (GET /api/user and the posts of a section against a bare better-sqlite3 handler).
import { isDeepStrictEqual } from 'node:util';
import { Column, fillPlaceholders, getTableColumns, getTableName } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from './client.ts';

const statementsOf = new WeakMap<Db, Map<unknown, unknown>>();

/**
 * The statement `build` makes for `db`, built on first use and kept as long as the connection lives.
 * `key` names the query: the builder function itself, or a string for variants of one builder.
 */
export function preparedFor<Statement>(db: Db, key: unknown, build: (db: Db) => Statement): Statement {
  let statements = statementsOf.get(db);
  if (!statements) {
    statements = new Map();
    statementsOf.set(db, statements);
  }
  let statement = statements.get(key) as Statement | undefined;
  if (statement === undefined) {
    statement = build(db);
    statements.set(key, statement);
  }
  return statement;
}

/** A select prepared by plainRowsOf: run with the values of its placeholders, if it has any. */
export interface PlainRows<Row> {
  all(values?: Record<string, unknown>): Row[];
}

/**
 * A select of every column of `table`, prepared once and run by better-sqlite3 itself rather than through
 * drizzle's row mapping, which visits every field of every row to decode it even when nothing needs
 * decoding: for the update feeds' read of every versioned release and file (24 releases, 90 files) that
 * doubled the read, 146 µs against 87 µs (docs/engineering.md#speed-notes). The rows are the very objects
 * drizzle would return, which holds only while every column comes back from SQLite as it is stored (an
 * integer, real or text column without a mode that maps it) under its own name: checked here, so a
 * column that would need decoding fails the first read loudly instead of answering undecoded values.
 */
export function plainRowsOf<Table extends SQLiteTable>(
  db: Db,
  table: Table,
  query: { toSQL(): { sql: string; params: unknown[] } },
): PlainRows<Table['$inferSelect']> {
  const columns = getTableColumns(table);
  for (const [key, column] of Object.entries(columns)) {
    if (column.name !== key) throw new Error(`plainRowsOf: ${getTableName(table)}.${key} is stored as ${column.name}; its rows need drizzle's mapping`);
    if (column.mapFromDriverValue !== Column.prototype.mapFromDriverValue) {
      throw new Error(`plainRowsOf: ${getTableName(table)}.${key} is decoded by drizzle (${column.columnType}); its rows need drizzle's mapping`);
    }
  }
  const { sql, params } = query.toSQL();
  const statement = db.$client.prepare(sql);
  const selected = statement.columns().map((column) => column.name);
  if (!isDeepStrictEqual(selected, Object.keys(columns))) {
    throw new Error(`plainRowsOf: the query selects ${selected.join(', ')}, not every column of ${getTableName(table)} in order`);
  }
  // Logged as drizzle logs its own statements: the bench reads the product's SQL through that logger.
  const { logger } = (db as unknown as { session: { logger: { logQuery(sql: string, params: unknown[]): void } } }).session;
  return {
    all: (values = {}) => {
      const bound = fillPlaceholders(params, values);
      logger.logQuery(sql, bound);
      return statement.all(...bound) as Table['$inferSelect'][];
    },
  };
}
