// Prepared statements for the hottest reads (a session lookup on every signed-in request, the posts of a
// section). Building a drizzle query and preparing its SQL cost about twice the query itself (measured
// with `npm run bench`: GET /api/user went from 0.36x to … of a bare better-sqlite3 handler), so these are
// built once per database connection, with placeholders, and only executed afterwards.
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
