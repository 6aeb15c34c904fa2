// The framework-overhead reference (issue 8): the least code that answers the benchmarked API requests
// with Hono and better-sqlite3 — the same SQL as the product (captured-queries.ts), its rows presented by
// the product's own presenters (posts and sections, the user, licenses), JSON out — and none of the
// product's middleware (sessions, XSRF, security headers, logging). Issue 25
// adds the update API's latest: the same reads, choice, signed link and answer, without the guard, the
// rate limits, the check counting and the query validation. The work both share is done the product's way
// (a write transaction's quick lock retries, license files signed by node:crypto: decision 0057; a license's
// effective entitlements by licenseTerms; a file by signLicenseFile with the data directory's key), and the
// answers are the product's, field for field (bench/run.ts compares them before the load), so a ratio says
// what the product adds around that work, not how the work is done or how much of it.
// Usage: SITE_URL=… LICENSE_LEASE_DAYS=… [SUPPORT_EMAIL=…] node bench/lib/bare-api-server.ts <database file> <port> <captured queries JSON file> [processes]
// (the product's: the issuer of its license files, a node-locked machine's lease, the support address.)
//
// Like with like (issue 31, item 7): with `processes` > 1 it forks that many minus one more processes, and
// each binds the port itself (SO_REUSEPORT), as the product's primary and web workers do
// (server/process/worker.ts); the first answers /ready once every one listens (bench/lib/reference-processes.ts).
import { createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import Database from 'better-sqlite3';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { getTableColumns, type Table } from 'drizzle-orm';
import type { CapturedQueries } from './captured-queries.ts';
import { listenInProcesses } from './reference-processes.ts';
import { compareSemver } from '../../common/semver.ts';
import { renderMarkdown } from '../../common/markdown/index.ts';
import { isAdmin } from '../../server/auth/guards.ts';
import { toPublicUser } from '../../server/auth/public-user.ts';
import { configureConnection, writeTransaction } from '../../server/db/client.ts';
import { licenseMachines, licenses as licensesTable, licenseTypes, users, type License, type Post, type Section, type User } from '../../server/db/schema.ts';
import { presentPost, presentSection } from '../../server/features/content/present.ts';
import type { PostWithRelations } from '../../server/features/content/queries.ts';
import type { MachineView } from '../../server/features/licensing/machine-list.ts';
import { presentLicensesWithMachines } from '../../server/features/licensing/present.ts';
import type { LicenseTypeTerms, LicenseWithType } from '../../server/features/licensing/queries.ts';
import { signLicenseFile } from '../../server/features/licensing/license-file.ts';
import { licenseTerms } from '../../server/features/licensing/license-terms.ts';
import { loadKeyring } from '../../server/signing/signing-keys.ts';

const [databaseFile, port, queriesFile, processesArgument = '1'] = process.argv.slice(2);
if (!databaseFile || !port || !queriesFile) throw new Error('usage: bare-api-server.ts <database file> <port> <queries JSON> [processes]');
const processes = Number(processesArgument);
if (!Number.isInteger(processes) || processes < 1) throw new Error(`processes must be a whole number ≥ 1, not "${processesArgument}"`);
const queries = JSON.parse(fs.readFileSync(queriesFile, 'utf8')) as CapturedQueries;

// One connection per process for reads and writes, with the product's settings (configureConnection), as
// each of the product's serving processes has. Not a read-only connection beside a writer: SQLite empties a
// connection's page cache when another connection has written since its last read, so every read after the
// heartbeat's write would load its pages again (about 60 µs a heartbeat more, measured: docs/scaling.md,
// 2026-12-04), a cost the product's own connection does not pay for its own writes. (Its own settings once
// kept SQLite's `synchronous = FULL`, 140–180 µs a heartbeat the product does not pay.)
const sqlite = new Database(databaseFile, { fileMustExist: true });
configureConnection(sqlite);

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

/** A left join's columns, or null when it found no row (all null), as drizzle gives them. */
function joinedOrNull<Row>(columns: Record<string, unknown> | undefined): Row | null {
  return columns === undefined || Object.values(columns).every((value) => value === null) ? null : (columns as Row);
}

/**
 * A row's columns (by their SQL names, as `nested` gives them) under the names drizzle gives the table's
 * fields (users.company_name is companyName), so the product's presenters read them as they read its own rows.
 */
function fieldsOf<Row>(table: Table, columns: Record<string, unknown> | undefined): Row {
  const fields: Record<string, unknown> = {};
  for (const [field, column] of Object.entries(getTableColumns(table))) if (columns && column.name in columns) fields[field] = columns[column.name];
  return fields as Row;
}

const sectionBySlug = nested(queries.sectionBySlug);
const postsOfSection = nested(queries.publishedPostsOfSection);
const sessionWithUser = nested(queries.sessionWithUser);
const licensesOfUser = nested(queries.licensesOfUser);
const machinesOfLicenses = nested(queries.machinesOfLicenses);
const licenseByKey = nested(queries.licenseByKey);
const machinesOfLicense = nested(queries.machinesOfLicense);
const firstAdminEmail = sqlite.prepare(queries.firstAdminEmail).pluck();
/** GET /api/user's support_email as the product gives it: SUPPORT_EMAIL, else the first admin's address, read once and kept (the product keeps it a while). */
let supportEmailRead: { email: string | null } | undefined;
const supportEmail = () => (supportEmailRead ??= { email: process.env.SUPPORT_EMAIL ?? (firstAdminEmail.get() as string | undefined) ?? null }).email;

// The heartbeat (issue 24) writes, on the same connection as the reads.
const renewLease = sqlite.prepare('update license_machines set last_check_in_at = ?, lease_expires_at = ? where id = ?');
// In a write transaction as the product takes one (server/db/client.ts): the lock asked for again after
// microseconds when another process holds it, not after SQLite's millisecond sleeps.
const heartbeatWrite = (machineId: number, at: string, lease: string) => writeTransaction({ $client: sqlite }, () => renewLease.run(at, lease, machineId));
// Signing is part of the work measured (a heartbeat answers a fresh file), so the bare handler signs too:
// the product's file, with the product's own signing and key (server/features/licensing/license-file.ts).
const keyring = loadKeyring({ dataDir: path.dirname(databaseFile) });
const issuer = process.env.SITE_URL;
if (!issuer) throw new Error("SITE_URL must name the product's site: it is the issuer of the license files");
/** How long a node-locked machine's lease runs: the product's LICENSE_LEASE_DAYS (docs/licensing.md). */
const NODE_LOCKED_LEASE_MS = Number(process.env.LICENSE_LEASE_DAYS) * 86_400_000;
if (!(NODE_LOCKED_LEASE_MS > 0)) throw new Error("LICENSE_LEASE_DAYS must be the product's, a whole number of days");

type LicenseRow = NonNullable<ReturnType<typeof licenseByKey.get>>;
/** A license as the product's software API states it (validate's `license`, the file's `license` claims). */
function licenseClaims(found: LicenseRow) {
  const license = found.licenses ?? {};
  const type = found.license_types ?? {};
  const owner = found.users ?? {};
  return {
    id: Number(license.id),
    key: String(license.key),
    ...licenseTerms(
      { extra_entitlements: String(license.extra_entitlements), maintenance_until: (license.maintenance_until as string | null) ?? null },
      { name: String(type.name), entitlements: String(type.entitlements) },
    ),
    user_name: [owner.name, owner.surname].filter(Boolean).join(' '),
    company_name: (owner.company_name as string | null) ?? null,
    email: String(owner.email),
    max_machines: Number(license.max_machines),
    expire_date: (license.expire_date as string | null) ?? null,
  };
}

// The update API's latest (issue 25): every downloadable versioned release with its files, read per request
// as the product reads them; notes rendered once per release, as the product caches them.
const versionedReleases = sqlite.prepare('select * from download_items where downloadable = 1 and version is not null order by released_at desc, id desc');
const versionedFiles = sqlite.prepare(
  'select * from release_files where download_item_id in (select id from download_items where downloadable = 1 and version is not null) order by download_item_id, id',
);
type Row = Record<string, string | number | null>;
const notes = new Map<string, string>();
const linkSecret = randomBytes(32).toString('hex');
const PLATFORM_RANK: Record<string, number> = { windows: 0, any: 3 };

const app = new Hono()
  .get('/api/updates/v1/latest', (c) => {
    const key = /^License\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    const found = key ? licenseByKey.get(key.trim().toUpperCase()) : undefined;
    const license = found?.licenses;
    const entitlements = new Set<string>([
      ...(JSON.parse(String(found?.license_types?.entitlements ?? '[]')) as string[]),
      ...(JSON.parse(String(license?.extra_entitlements ?? '[]')) as string[]),
    ]);
    const current = c.req.query('current') ?? '0.0.0';
    const files = new Map<number, Row[]>();
    for (const file of versionedFiles.all() as Row[]) files.set(Number(file.download_item_id), [...(files.get(Number(file.download_item_id)) ?? []), file]);
    const candidates = (versionedReleases.all() as Row[])
      .filter((release) => release.channel === 'stable')
      .map((release) => ({
        release,
        file: (files.get(Number(release.id)) ?? [])
          .filter(
            (file) => file.sha512 !== null && (file.platform === 'windows' || file.platform === 'any') && (file.arch === 'x64' || file.arch === 'universal'),
          )
          .sort((a, b) => (PLATFORM_RANK[String(a.platform)] ?? 9) - (PLATFORM_RANK[String(b.platform)] ?? 9))[0],
      }))
      .filter((entry) => entry.file !== undefined)
      .sort((a, b) => compareSemver(String(b.release.version), String(a.release.version)));
    const allowed = (release: Row) =>
      release.entitlement === null ||
      (license !== undefined &&
        entitlements.has(String(release.entitlement)) &&
        (license.maintenance_until === null || String(release.released_at) <= String(license.maintenance_until)));
    const latestIndex = candidates.findIndex((entry) => allowed(entry.release));
    const latest = candidates[latestIndex];
    const blocked = latestIndex > 0 ? candidates[0] : undefined;
    if (!latest?.file) return c.json({ update: false, latest: null, blocked: null });
    const { release, file } = latest;
    const expires = Math.floor(Date.now() / 1000) + 900;
    const query = `expires=${expires}&license=${license?.id ?? ''}`;
    const path = `/api/updates/v1/files/${file.id}`;
    const sig = createHmac('sha256', linkSecret).update(`${path}?${query}`).digest('hex');
    const cacheKey = `${release.id}\n${release.updated_at}`;
    let html = notes.get(cacheKey);
    if (html === undefined) notes.set(cacheKey, (html = renderMarkdown(String(release.body))));
    return c.json({
      update: compareSemver(String(release.version), current) > 0,
      latest: {
        version: release.version,
        channel: release.channel,
        released_at: release.released_at,
        notes_markdown: release.body,
        notes_html: html,
        file: { name: file.name, size: file.size, sha256: file.sha256, sha512: file.sha512, url: `http://127.0.0.1${path}?${query}&sig=${sig}` },
      },
      blocked: blocked ? { version: blocked.release.version, code: 'ENTITLEMENTS_MISSING' } : null,
    });
  })
  .get('/api/news/getPosts/byslug/:slug', (c) => {
    const section = sectionBySlug.get('news', c.req.param('slug'))?.sections as Section | undefined;
    if (!section) return c.json({ message: 'no such section' }, 404);
    // Rows shaped as the product's listPostsWithRelations shapes them (a left-joined file or author that is
    // not there is null), then presented by the product's own presentPost and presentSection.
    const now = Date.now();
    const posts = postsOfSection.all('news', section.id).map((row) =>
      presentPost(
        {
          ...(row.posts as Post),
          section: row.sections as PostWithRelations['section'],
          uploaded_file: joinedOrNull(row.uploaded_files),
          user: joinedOrNull(row.users),
        },
        now,
      ),
    );
    return c.json({ posts, section_id: section.id, section: presentSection(section), fallback: false });
  })
  .get('/api/user', (c) => {
    const token = getCookie(c, 'session');
    const found = token === undefined ? undefined : sessionWithUser.get(createHash('sha256').update(token).digest('hex'));
    if (!found?.users) return c.json({ message: 'Unauthenticated.' }, 401);
    const user = fieldsOf<User>(users, found.users);
    // An admin's answer adds the inbox's unread count and may ask for two-factor enrolment: the bench signs
    // in as a reader, and this reference answers only what it is measured on, never a wrong admin answer.
    if (isAdmin(user)) return c.json({ message: "The bare reference answers a reader's GET /api/user, not an admin's." }, 501);
    const licenses = licensesOfUser.all(user.id).map((row): LicenseWithType => ({
      ...fieldsOf<License>(licensesTable, row.licenses),
      license_type: fieldsOf<LicenseTypeTerms>(licenseTypes, row.license_types),
    }));
    // The product reads each license's machines for all of them at once: so does this.
    const machines = new Map<number, MachineView[]>(licenses.map((license) => [license.id, []]));
    if (licenses.length > 0) {
      for (const row of machinesOfLicenses.all(JSON.stringify(licenses.map((license) => license.id)))) {
        const { license_id: licenseId, ...machine } = fieldsOf<MachineView & { license_id: number }>(licenseMachines, row.license_machines);
        machines.get(licenseId)?.push(machine);
      }
    }
    // The product's presenting (server/features/sessions/present.ts, accountPayload): the same fields, statuses and live leases.
    return c.json({
      user: { ...toPublicUser(user), two_factor_required: false },
      licenses: presentLicensesWithMachines(licenses, machines, { viewer: user, now: Date.now() }),
      support_email: supportEmail(),
      inbox_unread: null,
    });
  })
  // The licensing API's validate (issue 12): the same two lookups and the same answer (issue 24's
  // entitlements and maintenance included), without the product's rate limits, body limit and validation.
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
      license: { ...licenseClaims(found), active_machines: machines.length },
    });
  })
  // The heartbeat (issue 24): the same lookups, the lease renewed in a BEGIN IMMEDIATE transaction, a signed
  // file; without the product's rate limits, body limit, validation and state checks.
  .post('/api/licensing/v1/heartbeat', async (c) => {
    const { key, fingerprint } = await c.req.json<{ key: string; fingerprint: string }>();
    const found = licenseByKey.get(key.trim().toUpperCase());
    if (!found?.licenses) return c.json({ code: 'NOT_FOUND', message: 'No license has this key.', valid: false });
    const license = found.licenses;
    const machine = machinesOfLicense
      .all(license.id)
      .map((row) => row.license_machines ?? {})
      .find((candidate) => candidate.fingerprint === fingerprint);
    if (!machine) return c.json({ code: 'HEARTBEAT_DEAD', message: 'The lease of this machine has ended; activate again.', valid: false });
    const now = Date.now();
    const type = found.license_types ?? {};
    const leaseEnd = new Date(now + (type.floating === 1 ? Number(type.lease_minutes) * 60_000 : NODE_LOCKED_LEASE_MS));
    heartbeatWrite(Number(machine.id), new Date(now).toISOString(), leaseEnd.toISOString());
    const file = await signLicenseFile(keyring, {
      issuer,
      license: licenseClaims(found),
      machine: { fingerprint, name: (machine.name as string | null) ?? null, leaseExpiresAt: leaseEnd },
      now: new Date(now),
    });
    return c.json({ code: 'VALID', message: 'The license is valid.', valid: true, lease_expires_at: leaseEnd.toISOString(), license_file: file });
  })
  .get('/ready', (c) => c.text('ok'));

const listen = () =>
  new Promise<void>((resolve, reject) => {
    const server = createAdaptorServer({ fetch: app.fetch });
    server.once('error', reject);
    server.listen({ port: Number(port), host: '127.0.0.1', reusePort: true, exclusive: true }, () => resolve());
  });

await listenInProcesses(processes, listen);
