// Prepared statements for the hottest reads: the session with its user (every signed-in request), a
// user's licenses, a section by slug and the posts of a section. For reads this small, building the
// drizzle query and preparing its SQL costs more than running it, so each statement is built once per
// database connection, with placeholders, and afterwards only executed. `npm run bench` shows what this
// buys (GET /api/user and the posts of a section against a bare better-sqlite3 handler).
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
