// The bench's API and licensing ratios compare the product with a bare handler that must do the same work
// (bench/lib/bare-api-server.ts); the bench stops before the load when the two answer differently
// (bench/lib/same-answers.ts). Here both answer a license that carries everything issue 24 gave the
// software's answers (an edition's entitlements and the license's own, a maintenance window, a floating
// lease, an owner with surname and company), its owner's GET /api/user and a section's posts with and
// without a file, so a field the product's answer gains and the bare handler's lacks fails here, not in
// the middle of a bench run.
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureQueries } from '../../bench/lib/captured-queries.ts';
import { startNodeProcess, type ProductProcess } from '../../bench/lib/product.ts';
import { answerDifference } from '../../bench/lib/same-answers.ts';
import { users } from '../../server/db/schema.ts';
import { insertLicenseType } from '../../server/features/license-types/queries.ts';
import { insertLicense, insertMachine } from '../../server/features/licensing/queries.ts';
import { createUser, login } from '../helpers/auth.ts';
import { FIXTURE, insertContentFixture } from '../helpers/content-fixture.ts';
import { freePort } from '../helpers/fetch-client.ts';
import { createTestContext, type TestContext } from '../helpers/test-context.ts';

const LICENSING = '/api/licensing/v1';
let ctx: TestContext;
let bare: ProductProcess;
let body: string;

beforeAll(async () => {
  ctx = createTestContext();
  // Posts with and without an attached file, and an admin (the support address of GET /api/user).
  insertContentFixture(ctx.db);
  const owner = await createUser(ctx, { email: 'ada@example.com', name: 'Ada' });
  ctx.db.update(users).set({ surname: 'Lovelace', companyName: 'Analytical Engines Ltd' }).where(eq(users.id, owner.id)).run();
  const lab = insertLicenseType(ctx.db, { name: 'Lab', entitlements: JSON.stringify(['PRO', 'CAD']), floating: 1, lease_minutes: 15, max_machines: 3 });
  const at = new Date(ctx.now()).toISOString();
  const license = insertLicense(ctx.db, {
    license_type_id: lab.id,
    user_id: owner.id,
    active: 1,
    expire: 0,
    activated_at: at,
    max_machines: 3,
    extra_entitlements: JSON.stringify(['API']),
    maintenance_until: new Date(ctx.now() + 365 * 86_400_000).toISOString(),
  });
  insertMachine(ctx.db, {
    license_id: license.id,
    fingerprint: 'lab-pc-1',
    name: 'Lab PC 1',
    platform: 'windows',
    activated_at: at,
    last_check_in_at: at,
    lease_expires_at: new Date(ctx.now() + 10 * 60_000).toISOString(),
  });
  body = JSON.stringify({ key: license.key, fingerprint: 'lab-pc-1' });
  // The product's signing key exists before the bare handler reads the data directory's keys.
  ctx.keyring();
  const queriesFile = path.join(ctx.dataDir, 'bench-queries.json');
  fs.writeFileSync(queriesFile, JSON.stringify(captureQueries(ctx.config.databaseFile, { slug: 'news', sectionId: 1 })));
  const port = await freePort();
  bare = await startNodeProcess('bench/lib/bare-api-server.ts', {
    args: [ctx.config.databaseFile, String(port), queriesFile, '1'],
    env: {
      NODE_ENV: 'production',
      SITE_URL: ctx.config.siteUrl,
      LICENSE_LEASE_DAYS: String(ctx.config.licenseLeaseDays),
      ...(ctx.config.supportEmail === undefined ? {} : { SUPPORT_EMAIL: ctx.config.supportEmail }),
    },
    port,
    timeoutMs: 20_000,
    ready: async (base) => (await fetch(`${base}/ready`)).status === 200,
  });
});
afterAll(async () => {
  await bare?.stop();
  ctx?.cleanup();
});

const post = () => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
async function bothAnswer(route: string): Promise<[Record<string, unknown>, Record<string, unknown>]> {
  const product = await ctx.app.request(`${LICENSING}${route}`, post());
  const reference = await fetch(`${bare.base}${LICENSING}${route}`, post());
  expect([product.status, reference.status]).toEqual([200, 200]);
  return [(await product.json()) as Record<string, unknown>, (await reference.json()) as Record<string, unknown>];
}

describe("the bench's bare handlers", () => {
  it("answer validate as the product does, the edition's and the license's entitlements and maintenance included", async () => {
    const [product, reference] = await bothAnswer('/validate');
    expect(product).toMatchObject({
      code: 'VALID',
      license: { entitlements: ['API', 'CAD', 'PRO'], user_name: 'Ada Lovelace', company_name: 'Analytical Engines Ltd' },
    });
    expect(answerDifference('validate', product, reference)).toBeUndefined();
  });

  it('answer a heartbeat with the same file as the product: the same key, claims and lease, only its times differ', async () => {
    const [product, reference] = await bothAnswer('/heartbeat');
    expect(product).toMatchObject({ code: 'VALID', valid: true });
    expect(answerDifference('heartbeat', product, reference)).toBeUndefined();
    // The floating lease's 15 minutes, not a node-locked machine's 30 days, in both.
    for (const answer of [product, reference]) {
      const { exp = 0, iat = 0 } = decodeJwt(String(answer.license_file));
      expect(exp - iat).toBe(15 * 60);
    }
  });

  it("answer the owner's GET /api/user as the product does: the public user, each license presented with its live machines", async () => {
    const owner = await login(ctx.app, 'ada@example.com');
    const product = (await (await owner.request('GET', '/api/user')).json()) as Record<string, unknown>;
    const response = await fetch(`${bare.base}/api/user`, { headers: { Cookie: `session=${owner.cookies.get('session') ?? ''}` } });
    expect(response.status).toBe(200);
    const reference = (await response.json()) as Record<string, unknown>;
    expect(product).toMatchObject({
      user: { email: 'ada@example.com', surname: 'Lovelace', companyName: 'Analytical Engines Ltd', two_factor_required: false },
      licenses: [{ type: 'Lab', entitlements: ['API', 'CAD', 'PRO'], floating: 1, lease_minutes: 15, machines: [{ fingerprint: 'lab-pc-1' }] }],
    });
    expect(reference).not.toHaveProperty('user.password_hash');
    expect(answerDifference('user', product, reference)).toBeUndefined();
  });

  it('answer a section\'s posts as the product does: each with its section, file and author, and "… ago"', async () => {
    const route = '/api/news/getPosts/byslug/releases';
    const [productAnswer, referenceAnswer] = await Promise.all([
      ctx.app.request(route, { headers: { Accept: 'application/json' } }),
      fetch(`${bare.base}${route}`),
    ]);
    expect([productAnswer.status, referenceAnswer.status]).toEqual([200, 200]);
    const [product, reference] = [(await productAnswer.json()) as Record<string, unknown>, (await referenceAnswer.json()) as Record<string, unknown>];
    expect(product).toMatchObject({
      fallback: false,
      section: { title: 'Releases' },
      posts: [
        { title: FIXTURE.publishedPost, uploaded_file: { filename: 'notes.pdf' }, user: { name: 'Ada Admin' }, created_at_diff: 'just now' },
        { title: 'Second by display order', uploaded_file: null },
      ],
    });
    expect(answerDifference('byslug', product, reference)).toBeUndefined();
  });

  it('are told apart from the product when an answer lacks what the product states', async () => {
    const [product, reference] = await bothAnswer('/validate');
    const license = reference.license as Record<string, unknown>;
    const { entitlements: _dropped, ...withoutEntitlements } = license;
    expect(answerDifference('validate', product, { ...reference, license: withoutEntitlements })).toMatch(/^validate: the product answers .*"entitlements"/);
    const [beat, bareBeat] = await bothAnswer('/heartbeat');
    const [header, , signature] = String(bareBeat.license_file).split('.');
    const fewerClaims = Buffer.from(JSON.stringify({ license: { id: license.id }, iat: 1, exp: 2 })).toString('base64url');
    expect(answerDifference('heartbeat', beat, { ...bareBeat, license_file: `${header}.${fewerClaims}.${signature}` })).toMatch(/^heartbeat: /);
    // A post without its "… ago" is told apart, though what it says may differ from call to call.
    const post = { id: 1, created_at: '2026-12-01T10:00:00.000Z' };
    expect(
      answerDifference('byslug', { posts: [{ ...post, created_at_diff: '1 day ago' }] }, { posts: [{ ...post, created_at_diff: '2 days ago' }] }),
    ).toBeUndefined();
    expect(answerDifference('byslug', { posts: [{ ...post, created_at_diff: '1 day ago' }] }, { posts: [post] })).toMatch(/^byslug: /);
  });
});
