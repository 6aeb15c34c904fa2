// Access matrix (issue 8 item 4): walks the API's whole route table, read from the app itself, for five
// kinds of caller, and checks every answer against the explicit table below. A route the table does not
// classify fails the test, so a new route cannot ship without someone deciding who may call it.
// A second pass proves that every unsafe method under /api answers 419 without the X-XSRF-TOKEN header.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';
import { createClient, createUser, login, type TestClient } from '../../helpers/auth.ts';
import { FIXTURE, insertContentFixture } from '../../helpers/content-fixture.ts';
import fs from 'node:fs';
import path from 'node:path';
import { insertReleaseFile, listDownloadItems } from '../../../server/features/downloads/queries.ts';
import { newStoredName } from '../../../server/storage/release-files.ts';
import { releaseFilePath } from '../../helpers/downloads.ts';
import { eq } from 'drizzle-orm';
import { releaseFiles } from '../../../server/db/schema.ts';
import { ADMIN_TWO_FACTOR_REQUIRED_MESSAGE } from '../../../server/auth/guards.ts';
import { saveSecuritySettings } from '../../../server/auth/two-factor-policy.ts';
import { insertContactMessage } from '../../../server/features/contact/queries.ts';
import { insertLicenseRequest } from '../../../server/features/licensing/queries.ts';

type Role = 'anon' | 'unverified' | 'verified' | 'banned' | 'admin';
const ROLES: readonly Role[] = ['anon', 'unverified', 'verified', 'banned', 'admin'];

/**
 * 'pass': the guard let the caller through — any answer but 401, 403, 419 or a 5xx (with an empty body
 * most handlers answer a validation error or 404, which is the point: they got past the guard).
 * A number: exactly that status.
 */
type Outcome = 'pass' | number;
type Row = Record<Role, Outcome>;

// A banned user's cookie is dead (server/auth/sessions.ts ends the session of a banned user at once), so
// for every route a banned user is answered exactly like an anonymous visitor.
const PUBLIC: Row = { anon: 'pass', unverified: 'pass', verified: 'pass', banned: 'pass', admin: 'pass' };
const SIGNED_IN: Row = { anon: 401, unverified: 'pass', verified: 'pass', banned: 401, admin: 'pass' };
const VERIFIED: Row = { anon: 401, unverified: 403, verified: 'pass', banned: 401, admin: 'pass' };
/** A release flagged downloadable, with its file: the verified user gets the bytes. */
const DOWNLOAD: Row = { anon: 401, unverified: 403, verified: 200, banned: 401, admin: 200 };
const ADMIN: Row = { anon: 401, unverified: 403, verified: 403, banned: 401, admin: 'pass' };
/** /api/v1/: no session counts, whoever's cookie it is. */
const TOKEN_ONLY: Row = { anon: 401, unverified: 401, verified: 401, banned: 401, admin: 401 };
/** The update API's signed file links (issue 25): no session counts, without the signature 403. */
const SIGNED_LINK_ONLY: Row = { anon: 403, unverified: 403, verified: 403, banned: 403, admin: 403 };

const NAMESPACES = ['news', 'documentation', 'tutorials'] as const;

function perNamespace(rows: Record<string, Row>): Record<string, Row> {
  const out: Record<string, Row> = {};
  for (const ns of NAMESPACES) for (const [key, row] of Object.entries(rows)) out[key.replace('{ns}', ns)] = row;
  return out;
}

/** `METHOD path` exactly as app.routes spells it (regex constraints included) → expected outcome per role. */
const EXPECTED: Record<string, Row> = {
  'GET /sanctum/csrf-cookie': PUBLIC,
  'GET /api/botcheck/challenge': PUBLIC,

  // Auth: open to everyone (validation fails on the empty body).
  'POST /api/auth/login': PUBLIC,
  'POST /api/auth/logout': PUBLIC,
  'POST /api/auth/create': PUBLIC,
  'GET /api/auth/email/verify/:id/:hash': PUBLIC,
  'POST /api/auth/email/resend': SIGNED_IN,
  'POST /api/auth/reset-password': PUBLIC,
  'POST /api/auth/new-password': PUBLIC,
  // The login's second step: open like the first; what binds it is the pending step's cookie
  // (tests/server/features/two-factor/two-factor-login.test.ts).
  'POST /api/auth/two-factor': PUBLIC,
  // Passkeys (issue 27): signing in is open like the password login; the second step's options are bound to the
  // pending login's cookie (401 without one). tests/server/features/passkeys/.
  'POST /api/auth/passkey/options': PUBLIC,
  'POST /api/auth/passkey': PUBLIC,
  'POST /api/auth/two-factor/passkey-options': { anon: 401, unverified: 401, verified: 401, banned: 401, admin: 401 },

  // The user's own account. The :id / :userId used is another user's, so only an admin may act on it,
  // and nobody may request a license for someone else (not even an admin).
  'GET /api/user': SIGNED_IN,
  // Two-factor enrolment: every signed-in user, admins who must enrol included (docs/product/accounts.md#two-factor-sign-in).
  'POST /api/user/two-factor/setup': SIGNED_IN,
  'POST /api/user/two-factor/enable': SIGNED_IN,
  'POST /api/user/two-factor/disable': SIGNED_IN,
  'POST /api/user/two-factor/recovery-codes': SIGNED_IN,
  // The caller's own passkeys; another user's id answers 404, past the guard.
  'GET /api/user/passkeys': SIGNED_IN,
  'POST /api/user/passkeys/options': SIGNED_IN,
  'POST /api/user/passkeys': SIGNED_IN,
  'PATCH /api/user/passkeys/:id': SIGNED_IN,
  'DELETE /api/user/passkeys/:id': SIGNED_IN,
  'PUT /api/user/update/:id': { anon: 401, unverified: 403, verified: 403, banned: 401, admin: 'pass' },
  'DELETE /api/user/delete/:id': ADMIN,
  'PUT /api/user/suspend/:id': ADMIN,
  'GET /api/user/request-license/:userId': { anon: 401, unverified: 403, verified: 403, banned: 401, admin: 403 },
  // The owner's machines (issue 12): a license that is not the caller's answers 404, past the guard.
  'DELETE /api/user/licenses/:licenseId/machines/:machineId': SIGNED_IN,
  'POST /api/user/licenses/:licenseId/license-file': SIGNED_IN,
  // The owner's license history in words (issue 24, item 5): anyone else's license answers 404.
  'GET /api/user/licenses/:licenseId/events': SIGNED_IN,
  // Own data (issue 13, item 5): the caller's own, so any signed-in user; the delete's empty body answers 422.
  'GET /api/user/export': SIGNED_IN,
  // Support history (issue 28, section 1): the caller's own items; another's (or an unknown) id answers 404, past the guard.
  'GET /api/user/support': SIGNED_IN,
  'POST /api/user/support/:kind{contact|license-request}/:id/reply': SIGNED_IN,
  'DELETE /api/user/account': SIGNED_IN,
  // Sessions, password and e-mail change (issue 13): the caller's own; another user's session id answers 404.
  'GET /api/user/sessions': SIGNED_IN,
  'POST /api/user/sessions/revoke-others': SIGNED_IN,
  'DELETE /api/user/sessions/:id': SIGNED_IN,
  'PUT /api/user/password': SIGNED_IN,
  'PUT /api/user/email': SIGNED_IN,
  // The e-mail change link is opened from a mail client: its signature, not a session, proves it.
  'GET /api/user/email/confirm/:id': PUBLIC,

  'POST /api/contact': PUBLIC,
  // The site's own pages (issue 28, section 1): public reads, admin edits.
  'GET /api/contact/details': PUBLIC,
  'PUT /api/contact/details': ADMIN,
  'GET /api/legal-pages': PUBLIC,
  'PUT /api/legal-pages/:slug{privacy|terms|imprint}': ADMIN,

  // Home page content.
  'GET /api/home/getSections': PUBLIC,
  'POST /api/home/store': ADMIN,
  'PUT /api/home/update': ADMIN,
  'DELETE /api/home/delete': ADMIN,
  'GET /api/home/images': ADMIN,
  'GET /api/home/section/:id{[0-9]+}/images': PUBLIC,
  'GET /api/home/section/:id{[0-9]+}/images/': PUBLIC,
  'POST /api/home/store/images': ADMIN,
  'POST /api/home/images': ADMIN,
  'POST /api/home/image/update-image/:id{[0-9]+}': ADMIN,
  'PUT /api/home/images/update': ADMIN,
  'PUT /api/home/image/update/:id{[0-9]+}': ADMIN,
  'PUT /api/home/images/update/section': ADMIN,
  'DELETE /api/home/delete/image': ADMIN,
  'DELETE /api/home/images/:id{[0-9]+}': ADMIN,
  'DELETE /api/home/images': ADMIN,
  'DELETE /api/home/images/': ADMIN,

  // News, documentation and tutorials: reading is public, writing is admin-only, extra files download
  // needs a verified user.
  ...perNamespace({
    'GET /api/{ns}/section/getSections': PUBLIC,
    'POST /api/{ns}/section/store': ADMIN,
    'PUT /api/{ns}/section/update': ADMIN,
    'DELETE /api/{ns}/section/delete': ADMIN,
    'GET /api/{ns}/extrafiles': ADMIN,
    'POST /api/{ns}/extrafiles': ADMIN,
    'DELETE /api/{ns}/extrafiles': ADMIN,
    'POST /api/{ns}/extrafiles/download': VERIFIED,
    'GET /api/{ns}/getposts': PUBLIC,
    'GET /api/{ns}/getPosts': PUBLIC,
    'GET /api/{ns}/getPosts/byslug/:slug': PUBLIC,
    'GET /api/{ns}/getPosts/:sectionId{[0-9]+}': PUBLIC,
    'POST /api/{ns}/store': ADMIN,
    'PUT /api/{ns}/update': ADMIN,
    'DELETE /api/{ns}/delete': ADMIN,
    'GET /api/{ns}/images': ADMIN,
    'POST /api/{ns}/images': ADMIN,
    'POST /api/{ns}/image/update-image/:id{[0-9]+}': ADMIN,
    'PUT /api/{ns}/image/update/:id{[0-9]+}': ADMIN,
    'DELETE /api/{ns}/images/:id{[0-9]+}': ADMIN,
    'DELETE /api/{ns}/images': ADMIN,
    'DELETE /api/{ns}/images/': ADMIN,
  }),

  // Downloads: the list and one release are public; the file needs a verified user.
  'GET /api/downloads/getSections': PUBLIC,
  'POST /api/downloads/store': ADMIN,
  'POST /api/downloads/update/:id{[0-9]+}': ADMIN,
  'DELETE /api/downloads/delete': ADMIN,
  'POST /api/downloads/download': DOWNLOAD,
  'GET /api/downloads/file/:id{[0-9]+}': DOWNLOAD,
  'GET /api/downloads/file/:id{[0-9]+}/:fileId{[0-9]+}': DOWNLOAD,
  'POST /api/downloads/:id{[0-9]+}/files': ADMIN,
  'DELETE /api/downloads/:id{[0-9]+}/files/:fileId{[0-9]+}': ADMIN,
  'GET /api/downloads/:id{[0-9]+}': PUBLIC,

  // Admin screen.
  'GET /api/admin/publish': ADMIN,
  'POST /api/admin/publish': ADMIN,
  'GET /api/admin/users': ADMIN,
  'GET /api/admin/users/:id/sessions': ADMIN,
  'DELETE /api/admin/users/:id/sessions': ADMIN,
  'DELETE /api/admin/users/:id/sessions/:sessionId': ADMIN,
  'GET /api/license/getAll': ADMIN,
  'POST /api/license/store': ADMIN,
  'PUT /api/license/update/:id': ADMIN,
  'DELETE /api/license/delete/:id': ADMIN,
  'GET /api/admin/licensing-settings': ADMIN,
  'PUT /api/admin/licensing-settings': ADMIN,
  'GET /api/admin/security-settings': ADMIN,
  'PUT /api/admin/security-settings': ADMIN,
  'DELETE /api/license/:licenseId/machines/:machineId': ADMIN,
  'GET /api/license/:licenseId/events': ADMIN,
  // License types (issue 24, item 1).
  'GET /api/license/types': ADMIN,
  'POST /api/license/types': ADMIN,
  'PUT /api/license/types/:id': ADMIN,
  'DELETE /api/license/types/:id': ADMIN,
  'GET /api/admin/banned-domains': ADMIN,
  'POST /api/admin/banned-domains/store': ADMIN,
  'DELETE /api/admin/banned-domains/delete/:id': ADMIN,
  'POST /api/admin/sendmailing': ADMIN,
  'GET /api/admin/mailings': ADMIN,
  'GET /api/admin/mailings/:id': ADMIN,
  'GET /api/admin/sitemap': ADMIN,
  'POST /api/admin/sitemap': ADMIN,
  // The admin inbox (issue 14): a kind the route does not know answers 404, past nothing.
  'GET /api/admin/inbox': ADMIN,
  'GET /api/admin/inbox/unread-count': ADMIN,
  'POST /api/admin/inbox/:kind{contact|license-request}/:id/read': ADMIN,
  'POST /api/admin/inbox/:kind{contact|license-request}/:id/handled': ADMIN,
  'POST /api/admin/inbox/:kind{contact|license-request}/:id/reopen': ADMIN,
  'POST /api/admin/inbox/:kind{contact|license-request}/:id/reply': ADMIN,
  // Assign to me (issue 28, item 23).
  'POST /api/admin/inbox/:kind{contact|license-request}/:id/assign': ADMIN,
  'POST /api/admin/inbox/:kind{contact|license-request}/:id/unassign': ADMIN,
  'POST /api/admin/inbox/license-request/:id/grant': ADMIN,
  'POST /api/admin/inbox/license-request/:id/decline': ADMIN,

  // The link in a mailing works signed out; without a valid signed token the handler refuses everyone
  // alike (403), which is not a role check.
  'GET /api/mailing/unsubscribe': { anon: 403, unverified: 403, verified: 403, banned: 403, admin: 403 },
  // Its RFC 8058 one-click POST: the same, and no XSRF token needed (server/auth/csrf.ts).
  'POST /api/mailing/unsubscribe': { anon: 403, unverified: 403, verified: 403, banned: 403, admin: 403 },

  // The company's software (docs/licensing.md): no session, authenticated by the license key in the body.
  'GET /api/licensing/v1/keys': PUBLIC,
  // Issue 25: the update API reads no session; without a key it answers for ungated stable releases.
  'GET /api/updates/v1/keys': PUBLIC,
  'GET /api/updates/v1/latest': PUBLIC,
  'GET /api/updates/v1/:channel{stable|beta}/latest.yml': PUBLIC,
  'GET /api/updates/v1/:channel{stable|beta}/latest-mac.yml': PUBLIC,
  'GET /api/updates/v1/:channel{stable|beta}/latest-linux.yml': PUBLIC,
  'GET /api/updates/v1/:channel{stable|beta}/latest-linux-arm64.yml': PUBLIC,
  'GET /api/updates/v1/:channel{stable|beta}/appcast.xml': PUBLIC,
  /** Only a signed link opens it, whoever's cookie comes along. */
  'GET /api/updates/v1/files/:fileId{[0-9]+}': SIGNED_LINK_ONLY,
  'GET /api/user/software': SIGNED_IN,
  'GET /api/admin/downloads/stats': ADMIN,
  'POST /api/licensing/v1/activate': PUBLIC,
  'POST /api/licensing/v1/validate': PUBLIC,
  'POST /api/licensing/v1/deactivate': PUBLIC,
  'POST /api/licensing/v1/heartbeat': PUBLIC,

  // Integrations (docs/integrations.md): the admin's webhooks and API tokens.
  'GET /api/admin/webhooks': ADMIN,
  'POST /api/admin/webhooks': ADMIN,
  'PUT /api/admin/webhooks/:id{[0-9]+}': ADMIN,
  'DELETE /api/admin/webhooks/:id{[0-9]+}': ADMIN,
  'POST /api/admin/webhooks/:id{[0-9]+}/test': ADMIN,
  'GET /api/admin/webhooks/:id{[0-9]+}/deliveries': ADMIN,
  'POST /api/admin/webhooks/:id{[0-9]+}/deliveries/:deliveryId/retry': ADMIN,
  'GET /api/admin/api-tokens': ADMIN,
  'POST /api/admin/api-tokens': ADMIN,
  'DELETE /api/admin/api-tokens/:id{[0-9]+}': ADMIN,
  // The integrations' API answers an API token only: a browser's cookies, an admin's included, count for nothing
  // (tests/server/features/api-tokens/ covers the tokens).
  'GET /api/v1/users': TOKEN_ONLY,
  'POST /api/v1/users': TOKEN_ONLY,
  'GET /api/v1/licenses': TOKEN_ONLY,
  'POST /api/v1/licenses': TOKEN_ONLY,
  'PATCH /api/v1/licenses/:id': TOKEN_ONLY,
  'GET /api/v1/releases': TOKEN_ONLY,
  // The description of the machine APIs and its reference page: public, like any published API's.
  'GET /api/openapi.json': PUBLIC,
  'GET /api/reference': PUBLIC,
};

/** The machine APIs, the prefixes exempt from the XSRF and Origin checks (server/auth/csrf.ts). */
const MACHINE_APIS = ['/api/licensing/v1/', '/api/updates/v1/', '/api/v1/'];
/** The one path exempt from the XSRF check only: the mail provider's one-click unsubscribe. */
const ONE_CLICK_UNSUBSCRIBE = '/api/mailing/unsubscribe';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface RouteKey {
  method: string;
  path: string;
  key: string;
}

/** The app's own routes under /api and /sanctum, one entry per (method, path); middleware is skipped. */
function routeTable(t: TestContext): RouteKey[] {
  const seen = new Map<string, RouteKey>();
  for (const route of t.app.routes) {
    if (route.method === 'ALL' || route.path.includes('*')) continue;
    if (!route.path.startsWith('/api/') && route.path !== '/api' && !route.path.startsWith('/sanctum/')) continue;
    const key = `${route.method} ${route.path}`;
    if (!seen.has(key)) seen.set(key, { method: route.method, path: route.path, key });
  }
  return [...seen.values()];
}

function isPass(status: number): boolean {
  return status !== 401 && status !== 403 && status !== 419 && status < 500;
}

describe('access matrix', () => {
  let t: TestContext;
  let routes: RouteKey[];
  let victimId: number;
  let sectionId: number;
  /** A release flagged downloadable (a verified user may fetch it) and one that is not (admin only). */
  let downloadableId: number;
  let downloadableFileId: number;
  let restrictedId: number;
  const clients = {} as Record<Role, TestClient>;
  const accounts = {
    unverified: { email: 'unverified@example.test', verified: false },
    verified: { email: 'verified@example.test', verified: true },
    banned: { email: 'banned@example.test', verified: true },
    admin: { email: 'boss@example.test', verified: true, role: 'admin' as const },
  };

  /** Real values for the path parameters: ids that exist where it matters. */
  function concretePath(path: string): string {
    return path.replace(/\{[^}]*\}/g, '').replace(/:(\w+)/g, (_match, name: string) => {
      // The victim, not a caller: ending user 1's sessions would sign out a role of this test.
      if (name === 'userId' || (name === 'id' && (path.startsWith('/api/user/') || path.startsWith('/api/admin/users/')))) return String(victimId);
      if (name === 'sectionId') return String(sectionId);
      if (name === 'id' && path.startsWith('/api/downloads/')) return String(downloadableId);
      if (name === 'fileId' && path.startsWith('/api/downloads/')) return String(downloadableFileId);
      if (name === 'slug') return path.startsWith('/api/legal-pages/') ? 'privacy' : 'releases';
      if (name === 'hash') return 'not-a-real-hash';
      if (name === 'kind') return 'contact';
      if (name === 'channel') return 'stable';
      return '1';
    });
  }

  /** An empty JSON body for unsafe methods, except where a real one makes the check meaningful. */
  function bodyFor(key: string): object | undefined {
    if (key === 'POST /api/downloads/download') return { id: downloadableId };
    return UNSAFE.has(key.split(' ')[0] ?? '') ? {} : undefined;
  }

  async function loginAs(role: Exclude<Role, 'anon'>): Promise<TestClient> {
    return login(t.app, accounts[role].email);
  }

  beforeAll(async () => {
    t = createTestContext();
    const fixture = insertContentFixture(t.db);
    sectionId = fixture.sections.releases.id;
    const releases = listDownloadItems(t.db);
    downloadableId = releases.find((item) => item.title === FIXTURE.currentRelease)?.id ?? 0;
    restrictedId = releases.find((item) => item.title === FIXTURE.previousRelease)?.id ?? 0;
    // Give both releases a real file, so only the rules (not a missing file) decide who gets it.
    for (const id of [downloadableId, restrictedId]) {
      const storedName = newStoredName();
      const filePath = releaseFilePath(t.config, storedName);
      fs.mkdirSync(path.dirname(filePath), { recursive: true });
      fs.writeFileSync(filePath, 'release bytes');
      // In place of any file row the fixture gave it (a name for the pages, no bytes behind it).
      t.db.delete(releaseFiles).where(eq(releaseFiles.download_item_id, id)).run();
      const file = insertReleaseFile(t.db, {
        download_item_id: id,
        name: `release-${id}.zip`,
        stored_name: storedName,
        size: 13,
        sha256: '',
        platform: 'any',
        arch: 'universal',
      });
      if (id === downloadableId) downloadableFileId = file.id;
    }
    for (const [, account] of Object.entries(accounts)) await createUser(t, account);
    victimId = (await createUser(t, { email: 'victim@example.test' })).id;
    routes = routeTable(t);

    clients.anon = createClient(t.app);
    await clients.anon.fetchCsrfCookie();
    for (const role of ['unverified', 'verified', 'banned', 'admin'] as const) clients[role] = await loginAs(role);
    // Banned after logging in: the cookie is what a banned user still holds.
    const bannedId = (clients.banned as Awaited<ReturnType<typeof login>>).user.id;
    const ban = await clients.admin.request('PUT', `/api/user/suspend/${bannedId}`, { is_banned: 1, id: bannedId });
    expect(ban.status).toBe(200);
  }, 60_000);

  afterAll(() => t?.cleanup());

  test('the route table was read from the app and skips middleware', () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.every((route) => route.method !== 'ALL')).toBe(true);
  });

  test('every route of the app is classified in the table (new routes must be added)', () => {
    const unlisted = routes.map((route) => route.key).filter((key) => !(key in EXPECTED));
    expect(unlisted, 'routes missing from EXPECTED in access-matrix.test.ts').toEqual([]);
  });

  test('the table lists no route the app no longer has', () => {
    const present = new Set(routes.map((route) => route.key));
    expect(Object.keys(EXPECTED).filter((key) => !present.has(key))).toEqual([]);
  });

  test("a user's support history holds only their own messages and requests, and answering another's is 404 (issue 28)", async () => {
    const at = new Date().toISOString();
    const victimMessage = insertContactMessage(t.db, {
      name: 'Victim',
      email: 'victim@example.test',
      message: 'Private to the victim',
      ip: null,
      created_at: at,
    });
    const ownMessage = insertContactMessage(t.db, { name: 'Verified', email: 'VERIFIED@example.test', message: 'Mine', ip: null, created_at: at });
    const victimRequest = insertLicenseRequest(t.db, victimId, at);
    for (const role of ['verified', 'unverified', 'admin'] as const) {
      const items = ((await (await clients[role].request('GET', '/api/user/support')).json()) as { items: Array<{ kind: string; id: number }> }).items;
      expect(items, role).toEqual(role === 'verified' ? [expect.objectContaining({ kind: 'contact', id: ownMessage.id })] : []);
      for (const path of [`/api/user/support/contact/${victimMessage.id}/reply`, `/api/user/support/license-request/${victimRequest.id}/reply`]) {
        expect((await clients[role].request('POST', path, { message: 'Let me in' })).status, `${role} ${path}`).toBe(404);
      }
    }
  });

  test('a release not flagged downloadable is for the admin only', async () => {
    const expected: Row = { anon: 401, unverified: 403, verified: 403, banned: 401, admin: 'pass' };
    for (const role of ROLES) {
      for (const [method, url, body] of [
        ['GET', `/api/downloads/file/${restrictedId}`, undefined],
        ['POST', '/api/downloads/download', { id: restrictedId }],
      ] as const) {
        const response = await clients[role].request(method, url, body);
        await response.arrayBuffer();
        const want = expected[role];
        expect(want === 'pass' ? isPass(response.status) : response.status === want, `${method} ${url} as ${role}: ${response.status}`).toBe(true);
      }
    }
  });

  test('each role gets the expected answer from each route', async () => {
    const mismatches: string[] = [];
    // Logging out ends the caller's session: that route goes last.
    const ordered = [...routes.filter((route) => route.key !== 'POST /api/auth/logout'), ...routes.filter((route) => route.key === 'POST /api/auth/logout')];
    for (const route of ordered) {
      const row = EXPECTED[route.key];
      if (!row) continue;
      const url = concretePath(route.path);
      for (const role of ROLES) {
        const response = await clients[role].request(route.method, url, bodyFor(route.key));
        await response.arrayBuffer();
        const expected = row[role];
        const ok = expected === 'pass' ? isPass(response.status) : response.status === expected;
        if (!ok) mismatches.push(`${route.key} (${url}) as ${role}: got ${response.status}, expected ${expected}`);
      }
    }
    expect(mismatches).toEqual([]);
  }, 120_000);

  test('while admins must use two-factor, an admin without it is refused by every admin route', async () => {
    // A fresh session: the walk above ended with a logout.
    const admin = await loginAs('admin');
    saveSecuritySettings(t.db, { require_two_factor_for_admins: 1 });
    try {
      const adminRoutes = routes.filter((route) => EXPECTED[route.key] === ADMIN || route.key === 'PUT /api/user/update/:id');
      expect(adminRoutes.length).toBeGreaterThan(30);
      const mismatches: string[] = [];
      for (const route of adminRoutes) {
        const response = await admin.request(route.method, concretePath(route.path), bodyFor(route.key));
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        if (response.status !== 403 || body.message !== ADMIN_TWO_FACTOR_REQUIRED_MESSAGE) mismatches.push(`${route.key}: ${response.status} ${body.message}`);
      }
      expect(mismatches).toEqual([]);
      // Enrolment stays open to them.
      expect((await admin.request('POST', '/api/user/two-factor/setup')).status).toBe(200);
    } finally {
      saveSecuritySettings(t.db, { require_two_factor_for_admins: 0 });
    }
  }, 60_000);

  test('every unsafe method under /api but the machine APIs and the one-click unsubscribe answers 419 without the X-XSRF-TOKEN header', async () => {
    const admin = await loginAs('admin');
    const failures: string[] = [];
    const unsafe = routes.filter((candidate) => UNSAFE.has(candidate.method) && candidate.path.startsWith('/api/'));
    const exempt = unsafe.filter((route) => MACHINE_APIS.some((prefix) => route.path.startsWith(prefix)));
    expect(exempt.map((route) => route.key).sort()).toEqual([
      'PATCH /api/v1/licenses/:id',
      'POST /api/licensing/v1/activate',
      'POST /api/licensing/v1/deactivate',
      'POST /api/licensing/v1/heartbeat',
      'POST /api/licensing/v1/validate',
      'POST /api/v1/licenses',
      'POST /api/v1/users',
    ]);
    const oneClick = unsafe.filter((route) => route.path === ONE_CLICK_UNSUBSCRIBE);
    expect(oneClick.map((route) => route.key)).toEqual(['POST /api/mailing/unsubscribe']);
    // Reached without the header (its 403: no signed link), but the Origin check still refuses a foreign page.
    expect((await clients.anon.request('POST', ONE_CLICK_UNSUBSCRIBE, undefined, { headers: { 'X-XSRF-TOKEN': null } })).status).toBe(403);
    const foreign = await clients.anon.request('POST', ONE_CLICK_UNSUBSCRIBE, undefined, {
      headers: { 'X-XSRF-TOKEN': null, Origin: 'https://elsewhere.example' },
    });
    expect(await foreign.json()).toEqual({ message: 'Cross-origin request refused.' });
    for (const route of unsafe.filter((candidate) => !exempt.includes(candidate) && !oneClick.includes(candidate))) {
      const url = concretePath(route.path);
      const response = await admin.request(route.method, url, {}, { headers: { 'X-XSRF-TOKEN': null } });
      await response.arrayBuffer();
      if (response.status !== 419) failures.push(`${route.key} (${url}): got ${response.status}`);
    }
    expect(failures).toEqual([]);
    // The machine APIs are reached without the header, and with a foreign Origin: the software's answers 422
    // (the empty body), the integrations' 401 (no token).
    for (const route of exempt) {
      const response = await clients.anon.request(route.method, route.path, {}, { headers: { 'X-XSRF-TOKEN': null, Origin: 'https://elsewhere.example' } });
      expect(response.status, route.key).toBe(route.path.startsWith('/api/v1/') ? 401 : 422);
    }
    // Still signed in: nothing above got through.
    expect((await admin.request('GET', '/api/user')).status).toBe(200);
  }, 60_000);
});
