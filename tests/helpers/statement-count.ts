// How many SQL statements a piece of work runs, counted where every statement runs: better-sqlite3's
// Statement methods (drizzle's queries, the prepared hot reads of server/db/prepared.ts, transactions'
// BEGIN and COMMIT). A test states "one query per table, not one per row" with it, a property that holds on
// any machine, where a time limit would only hold on a fast one (timing belongs in the bench).
import type Database from 'better-sqlite3';

const RUNNING_METHODS = ['run', 'get', 'all', 'iterate'] as const;

/** Runs `work` and returns its result with the number of statements it ran on any connection of this process. */
export async function countStatements<T>(client: Database.Database, work: () => Promise<T> | T): Promise<{ result: T; statements: number }> {
  const prototype = Object.getPrototypeOf(client.prepare('select 1')) as Record<(typeof RUNNING_METHODS)[number], (...args: unknown[]) => unknown>;
  const originals = RUNNING_METHODS.map((name) => [name, prototype[name]] as const);
  let statements = 0;
  for (const [name, original] of originals) {
    prototype[name] = function counted(this: unknown, ...args: unknown[]) {
      statements += 1;
      return original.apply(this, args);
    };
  }
  try {
    const result = await work();
    return { result, statements };
  } finally {
    for (const [name, original] of originals) prototype[name] = original;
  }
}
