// The framework-overhead reference (issue 8): the least code that answers the two benchmarked API requests
// with Hono and better-sqlite3 — the same SQL as the product (captured-queries.ts), rows grouped by table,
// JSON out — and none of the product's middleware (sessions, XSRF, security headers, logging).
// Usage: node bench/lib/bare-api-server.ts <database file> <port> <captured queries JSON file>
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { serve } from '@hono/node-server';
import Database from 'better-sqlite3';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import type { CapturedQueries } from './captured-queries.ts';

const [databaseFile, port, queriesFile] = process.argv.slice(2);
if (!databaseFile || !port || !queriesFile) throw new Error('usage: bare-api-server.ts <database file> <port> <queries JSON>');
const queries = JSON.parse(fs.readFileSync(queriesFile, 'utf8')) as CapturedQueries;

const sqlite = new Database(databaseFile, { readonly: true, fileMustExist: true });
// The product's read pragmas (server/db/client.ts), so both read the file alike.
sqlite.pragma('cache_size = -65536');
sqlite.pragma('mmap_size = 268435456');

/** A prepared statement whose rows come back as { table: { column: value } }, as drizzle nests them. */
function nested(sql: string) {
  const statement = sqlite.prepare(sql).raw(true);
  const columns = statement.columns();
  const shape = (row: unknown[]) => {
    const result: Record<string, Record<string, unknown>> = {};
    columns.forEach((column, index) => {
      const table = column.table ?? '';
      (result[table] ??= {})[column.name] = row[index];
    });
    return result;
  };
  return {
    all: (...params: unknown[]) => (statement.all(...params) as unknown[][]).map(shape),
    get: (...params: unknown[]) => {
      const row = statement.get(...params) as unknown[] | undefined;
      return row && shape(row);
    },
  };
}

const sectionBySlug = nested(queries.sectionBySlug);
const postsOfSection = nested(queries.publishedPostsOfSection);
const sessionWithUser = nested(queries.sessionWithUser);
const licensesOfUser = nested(queries.licensesOfUser);
const licenseByKey = nested(queries.licenseByKey);
const machinesOfLicense = nested(queries.machinesOfLicense);

const app = new Hono()
  .get('/api/news/getPosts/byslug/:slug', (c) => {
    const section = sectionBySlug.get('news', c.req.param('slug'))?.sections;
    if (!section) return c.json({ message: 'no such section' }, 404);
    return c.json({ posts: postsOfSection.all('news', 1, section.id), section_id: section.id, section, fallback: false });
  })
  .get('/api/user', (c) => {
    const token = getCookie(c, 'session');
    const found = token === undefined ? undefined : sessionWithUser.get(createHash('sha256').update(token).digest('hex'));
    if (!found?.users) return c.json({ message: 'Unauthenticated.' }, 401);
    return c.json({ user: found.users, licenses: licensesOfUser.all(found.users.id) });
  })
  // The licensing API's validate (issue 12): the same two lookups and the same answer, without the
  // product's rate limits, body limit and validation.
  .post('/api/licensing/v1/validate', async (c) => {
    const { key, fingerprint } = await c.req.json<{ key: string; fingerprint?: string }>();
    const found = licenseByKey.get(key.trim().toUpperCase());
    if (!found?.licenses) return c.json({ code: 'NOT_FOUND', message: 'No license has this key.', valid: false, license: null });
    const license = found.licenses;
    const machines = machinesOfLicense.all(license.id).map((row) => row.license_machines ?? {});
    const code = fingerprint === undefined || machines.some((machine) => machine.fingerprint === fingerprint) ? 'VALID' : 'NO_MACHINE';
    return c.json({
      code,
      message: code === 'VALID' ? 'The license is valid.' : 'This license is not activated on this machine.',
      valid: code === 'VALID',
      license: {
        id: license.id,
        key: license.key,
        type: found.license_types?.name,
        user_name: found.users?.name,
        company_name: found.users?.company_name,
        email: found.users?.email,
        max_machines: license.max_machines,
        expire_date: license.expire_date,
        active_machines: machines.length,
      },
    });
  })
  .get('/ready', (c) => c.text('ok'));

serve({ fetch: app.fetch, port: Number(port), hostname: '127.0.0.1' });
