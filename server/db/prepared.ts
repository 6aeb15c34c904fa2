// Prepared statements for the hottest reads: the session with its user (every signed-in request), a
// user's licenses, a section by slug and the posts of a section. For reads this small, building the
// drizzle query and preparing its SQL costs more than running it, so each statement is built once per
// database connection, with placeholders, and afterwards only executed. `npm run bench` shows what this
// buys (GET /api/user and the posts of a section against a bare better-sqlite3 handler).
import { Column, fillPlaceholders, getTableName, is, SQL, Subquery } from 'drizzle-orm';
import type { Statement } from 'better-sqlite3';
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

/** A select prepared by preparedRows: run with the values of its placeholders, if it has any. */
export interface PreparedRows<Row> {
  get(values?: Record<string, unknown>): Row | undefined;
  all(values?: Record<string, unknown>): Row[];
}

/** What drizzle's prepared select (better-sqlite3) carries at run time: its SQL, its ordered fields and join nullability. */
interface DrizzlePreparedSelect {
  stmt: Statement;
  query: { sql: string; params: unknown[] };
  fields?: { path: string[]; field: unknown }[];
  joinsNotNullableMap?: Record<string, boolean>;
  logger: { logQuery(sql: string, params: unknown[]): void };
}

type Decode = ((value: unknown) => unknown) | null;
/** One step of building a row: open a nested object under its parent, or set a value from the raw row. */
type Step = { open: true; object: number; parent: number; key: string } | { open: false; object: number; key: string; index: number; decode: Decode };

/** The function turning a stored value into the field's value, or null when the value is kept as stored. */
function decoderOf(field: unknown): Decode {
  if (is(field, Column)) return field.mapFromDriverValue === Column.prototype.mapFromDriverValue ? null : (value) => field.mapFromDriverValue(value);
  // An SQL field's decoder (`sql<T>`…`.mapWith()`) is drizzle-internal in its types, public at run time.
  type Decoded = { decoder: { mapFromDriverValue(value: unknown): unknown } };
  const sqlOf = is(field, SQL) ? field : is(field, Subquery) ? (field._.sql as SQL) : (field as SQL.Aliased).sql;
  const { decoder } = sqlOf as unknown as Decoded;
  return (value) => decoder.mapFromDriverValue(value);
}

/**
 * A select prepared once per connection whose rows are built by steps worked out once from its fields,
 * rather than by drizzle's row mapping, which asks every field of every row what kind it is, walks its path
 * with an iterator and reduces over the row (`mapResultRow`): for the hottest reads (a license by its key,
 * the session with its user, a section's posts, the update feeds' releases) that mapping cost as much as the
 * statement itself (docs/engineering.md#speed-notes). The rows are exactly drizzle's: the same nesting and
 * key order, the same decoding of a column with a mode, and a left-joined table's object null when its first
 * column is (drizzle's own rule); a test compares the two over every shape the product prepares. When no
 * field needs decoding or nesting and each is stored under its own name, better-sqlite3's own row objects
 * are the rows.
 */
export function preparedRows<Query extends { prepare(): unknown; all(): unknown[] }>(query: Query): PreparedRows<ReturnType<Query['all']>[number]> {
  type Row = ReturnType<Query['all']>[number];
  const prepared = query.prepare() as DrizzlePreparedSelect;
  const { sql, params } = prepared.query;
  const fields = prepared.fields;
  if (!fields) throw new Error('preparedRows: a select with drizzle fields is needed');
  // drizzle's own statement for this SQL, run here in the mode the rows need (drizzle no longer runs it).
  const statement = prepared.stmt;
  const logger = prepared.logger;
  const bind = (values: Record<string, unknown> = {}) => {
    const bound = fillPlaceholders(params, values);
    // Logged as drizzle logs its own statements: the bench reads the product's SQL through that logger.
    logger.logQuery(sql, bound);
    return bound;
  };

  const storedNames = statement.columns().map((column) => column.name);
  const plain =
    fields.every(({ path, field }, index) => path.length === 1 && is(field, Column) && decoderOf(field) === null && storedNames[index] === path[0]) &&
    new Set(storedNames).size === storedNames.length;
  if (plain) {
    statement.raw(false);
    return { get: (values) => statement.get(...bind(values)) as Row | undefined, all: (values) => statement.all(...bind(values)) as Row[] };
  }

  const steps: Step[] = [];
  const objects = new Map<string, number>([['', 0]]);
  const nullable: { key: string; index: number }[] = [];
  const firstColumnOf = new Map<string, { index: number; table: string; mixed: boolean }>();
  fields.forEach(({ path, field }, index) => {
    let parent = 0;
    for (let depth = 1; depth < path.length; depth++) {
      const name = path.slice(0, depth).join('\u0000');
      let object = objects.get(name);
      if (object === undefined) {
        object = objects.size;
        objects.set(name, object);
        steps.push({ open: true, object, parent, key: path[depth - 1] as string });
      }
      parent = object;
    }
    steps.push({ open: false, object: parent, key: path[path.length - 1] as string, index, decode: decoderOf(field) });
    // drizzle's rule for an outer join: an object of one table's columns is null when its first column is.
    if (is(field, Column) && path.length === 2) {
      const table = getTableName(field.table);
      const first = firstColumnOf.get(path[0] as string);
      if (!first) firstColumnOf.set(path[0] as string, { index, table, mixed: false });
      else if (first.table !== table) first.mixed = true;
    }
  });
  const notNullable = prepared.joinsNotNullableMap;
  if (notNullable) {
    for (const [key, { index, table, mixed }] of firstColumnOf) if (!mixed && !notNullable[table]) nullable.push({ key, index });
  }
  const objectCount = objects.size;
  const build = (row: unknown[]): Row => {
    const built: Record<string, unknown>[] = new Array(objectCount);
    const root: Record<string, unknown> = {};
    built[0] = root;
    for (const step of steps) {
      if (step.open) {
        const object = {};
        (built[step.parent] as Record<string, unknown>)[step.key] = object;
        built[step.object] = object;
      } else {
        const raw = row[step.index];
        (built[step.object] as Record<string, unknown>)[step.key] = raw === null || step.decode === null ? raw : step.decode(raw);
      }
    }
    for (const { key, index } of nullable) if (row[index] === null) root[key] = null;
    return root as Row;
  };
  statement.raw(true);
  return {
    get: (values) => {
      const row = statement.get(...bind(values)) as unknown[] | undefined;
      return row === undefined ? undefined : build(row);
    },
    all: (values) => (statement.all(...bind(values)) as unknown[][]).map(build),
  };
}
