// The SQL the product runs for the benchmarked API answers, captured from the product's own query
// functions through drizzle's logger, so the bare reference handler runs exactly the same statements and
// cannot drift from them. The parameter order is checked here: a changed query fails the bench loudly.
import { isDeepStrictEqual } from 'node:util';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import type { Db } from '../../server/db/client.ts';
import { getLicensesOfUser } from '../../server/features/licensing/queries.ts';
import { listPostsWithRelations } from '../../server/features/content/queries.ts';
import { getSectionBySlug } from '../../server/features/content/queries.ts';
import { getSessionWithUser } from '../../server/db/queries/sessions.ts';
import { firstAdminEmail } from '../../server/db/queries/users.ts';
import * as schema from '../../server/db/schema.ts';
import { findLicenseByKey, listMachinesOfLicense } from '../../server/features/licensing/queries.ts';
import { listMachinesOfLicenses } from '../../server/features/licensing/machine-list.ts';

export interface CapturedQueries {
  /** params: [namespace, slug] */
  sectionBySlug: string;
  /** params: [namespace, sectionId] (published = 1 is in the SQL text: docs/decisions/0060-statements-planned-once.md) */
  publishedPostsOfSection: string;
  /** params: [sessionId] */
  sessionWithUser: string;
  /** params: [userId] */
  licensesOfUser: string;
  /** params: [the license ids as one JSON array] (GET /api/user answers each license with its machines) */
  machinesOfLicenses: string;
  /** no params (GET /api/user's support_email when SUPPORT_EMAIL is unset) */
  firstAdminEmail: string;
  /** params: [key] (the licensing API's validate) */
  licenseByKey: string;
  /** params: [licenseId] */
  machinesOfLicense: string;
}

export function captureQueries(databaseFile: string, example: { slug: string; sectionId: number }): CapturedQueries {
  const sqlite = new Database(databaseFile, { readonly: true, fileMustExist: true });
  let last: { sql: string; params: unknown[] } | null = null;
  const db = drizzle(sqlite, { schema, logger: { logQuery: (sql, params) => (last = { sql, params }) } }) as unknown as Db;
  const capture = (run: () => unknown, expectedParams: unknown[]): string => {
    last = null;
    run();
    const seen = last as { sql: string; params: unknown[] } | null;
    if (!seen) throw new Error('the product query ran no SQL');
    if (!isDeepStrictEqual(seen.params, expectedParams)) {
      throw new Error(`the product query's parameters changed: ${JSON.stringify(seen.params)} (the bench expects ${JSON.stringify(expectedParams)})`);
    }
    return seen.sql;
  };
  try {
    return {
      sectionBySlug: capture(() => getSectionBySlug(db, 'news', example.slug), ['news', example.slug]),
      publishedPostsOfSection: capture(
        () => listPostsWithRelations(db, 'news', { includeUnpublished: false, sectionId: example.sectionId }),
        ['news', example.sectionId],
      ),
      sessionWithUser: capture(() => getSessionWithUser(db, 'x'), ['x']),
      licensesOfUser: capture(() => getLicensesOfUser(db, 1), [1]),
      machinesOfLicenses: capture(() => listMachinesOfLicenses(db, [1]), ['[1]']),
      firstAdminEmail: capture(() => firstAdminEmail(db), []),
      licenseByKey: capture(() => findLicenseByKey(db, 'x'), ['x']),
      machinesOfLicense: capture(() => listMachinesOfLicense(db, 1), [1]),
    };
  } finally {
    sqlite.close();
  }
}
