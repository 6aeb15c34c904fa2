// The bench's bare handler runs the SQL the product's own query functions run, captured through drizzle's
// logger (bench/lib/captured-queries.ts): a query function that stops logging (a read run outside drizzle,
// as preparedRows runs them) must keep the capture working, or the bench stops before the API.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureQueries } from '../../bench/lib/captured-queries.ts';
import { createTestContext, type TestContext } from '../helpers/test-context.ts';

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext();
});
afterEach(() => ctx.cleanup());

describe('captureQueries', () => {
  it("captures every statement the bare handler runs from the product's query functions", () => {
    const queries = captureQueries(ctx.config.databaseFile, { slug: 'news-section', sectionId: 1 });
    expect(Object.keys(queries).sort()).toEqual([
      'firstAdminEmail',
      'licenseByKey',
      'licensesOfUser',
      'machinesOfLicense',
      'machinesOfLicenses',
      'publishedPostsOfSection',
      'sectionBySlug',
      'sessionWithUser',
    ]);
    for (const [name, sql] of Object.entries(queries)) expect(sql, name).toMatch(/^select /);
    expect(queries.machinesOfLicense).toMatch(/from "license_machines"/);
    expect(queries.machinesOfLicenses).toMatch(/from "license_machines".*json_each/s);
    expect(queries.firstAdminEmail).toMatch(/^select "email" from "users" where .*'admin'.* order by "users"."id"/);
  });
});
