// Who may download a gated release (issue 25 item 3): the download matrix on every browser route. Today's
// answers for visitors and unverified users; a release without a gate for every verified user; a release with
// an entitlement, or on the beta channel (BETA), only with a valid license that carries it and whose
// maintenance covers the release date, else 403 with NO_LICENSE, ENTITLEMENTS_MISSING or MAINTENANCE_EXPIRED;
// admins everything; ids a user may not see answer as today.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, createUser, login, type TestClient } from '../../../helpers/auth.ts';
import { createReleaseDirect, patternBytes } from '../../../helpers/downloads.ts';
import { createLicenseDirect, daysFromNow } from '../../../helpers/releases.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

let ctx: TestContext;
const clients: Record<string, TestClient> = {};
const releases: Record<string, { id: number; fileId: number }> = {};

const HOLDERS = ['visitor', 'unverified', 'no license', 'wrong entitlement', 'maintenance expired', 'beta without BETA', 'entitled', 'admin'] as const;
type Holder = (typeof HOLDERS)[number];

beforeAll(async () => {
  ctx = createTestContext();
  const make = (name: string, options: Parameters<typeof createReleaseDirect>[1]) => {
    const release = createReleaseDirect(ctx, { files: [{ name: `${name}.bin`, content: patternBytes(64) }], ...options });
    releases[name] = { id: release.id, fileId: release.files[0]!.id };
  };
  make('open', { version: '1.0.0' });
  make('pro', { version: '1.1.0', entitlement: 'PRO', releasedAt: daysFromNow(ctx, -5) });
  make('beta', { version: '1.2.0-beta.1', channel: 'beta' });
  make('hidden', { version: '1.3.0', downloadable: false });

  const users: Record<string, number> = {};
  for (const [holder, options] of [
    ['unverified', { verified: false }],
    ['no license', {}],
    ['wrong entitlement', {}],
    ['maintenance expired', {}],
    ['beta without BETA', {}],
    ['entitled', {}],
    ['admin', { role: 'admin' as const }],
  ] as const) {
    const email = `${holder.replace(/ /g, '-')}@example.com`;
    users[holder] = (await createUser(ctx, { email, ...options })).id;
    clients[holder] = await login(ctx.app, email);
  }
  clients.visitor = createClient(ctx.app);
  await clients.visitor.fetchCsrfCookie();
  createLicenseDirect(ctx, users['wrong entitlement']!, { entitlements: ['OTHER'] });
  // PRO, but maintenance ended ten days before the PRO release came out; an expired BETA license does not help.
  createLicenseDirect(ctx, users['maintenance expired']!, { entitlements: ['PRO'], maintenanceUntil: daysFromNow(ctx, -15) });
  createLicenseDirect(ctx, users['maintenance expired']!, { entitlements: ['BETA'], expireDate: daysFromNow(ctx, -1) });
  createLicenseDirect(ctx, users['beta without BETA']!, { entitlements: ['PRO'] });
  createLicenseDirect(ctx, users.entitled!, { entitlements: ['PRO', 'BETA'], maintenanceUntil: daysFromNow(ctx, 30) });
});
afterAll(() => ctx.cleanup());

const OK = 200;
const expected: Record<Holder, Record<'open' | 'pro' | 'beta' | 'hidden', number | string>> = {
  visitor: { open: 401, pro: 401, beta: 401, hidden: 401 },
  unverified: { open: 403, pro: 403, beta: 403, hidden: 403 },
  'no license': { open: OK, pro: 'NO_LICENSE', beta: 'NO_LICENSE', hidden: 403 },
  'wrong entitlement': { open: OK, pro: 'ENTITLEMENTS_MISSING', beta: 'ENTITLEMENTS_MISSING', hidden: 403 },
  'maintenance expired': { open: OK, pro: 'MAINTENANCE_EXPIRED', beta: 'ENTITLEMENTS_MISSING', hidden: 403 },
  'beta without BETA': { open: OK, pro: OK, beta: 'ENTITLEMENTS_MISSING', hidden: 403 },
  entitled: { open: OK, pro: OK, beta: OK, hidden: 403 },
  admin: { open: OK, pro: OK, beta: OK, hidden: OK },
};

const ROUTES = {
  'GET /api/downloads/file/{id}': (client: TestClient, r: { id: number }) => client.request('GET', `/api/downloads/file/${r.id}`),
  'GET /api/downloads/file/{id}/{fileId}': (client: TestClient, r: { id: number; fileId: number }) =>
    client.request('GET', `/api/downloads/file/${r.id}/${r.fileId}`),
  'POST /api/downloads/download': (client: TestClient, r: { id: number }) => client.request('POST', '/api/downloads/download', { id: r.id }),
};

describe.each(Object.entries(ROUTES))('%s', (_route, send) => {
  it.each(HOLDERS)('answers %s as the matrix says', async (holder) => {
    const got: Record<string, number | string> = {};
    for (const name of ['open', 'pro', 'beta', 'hidden'] as const) {
      const response = await send(clients[holder]!, releases[name]!);
      if (response.status === 403 && response.headers.get('content-type')?.includes('json')) {
        const body = (await response.json()) as { code?: string; message: string };
        got[name] = body.code ?? 403;
        // Every refusal is in words; a coded one says what to do.
        expect(body.message.length).toBeGreaterThan(10);
      } else {
        got[name] = response.status;
        await response.arrayBuffer();
      }
    }
    expect(got).toEqual(expected[holder]);
  });
});

describe('refusals', () => {
  it('say why in words, and never tell a user about a release they may not see', async () => {
    const pro = await clients['maintenance expired']!.request('GET', `/api/downloads/file/${releases.pro!.id}`);
    expect(await pro.json()).toEqual({
      code: 'MAINTENANCE_EXPIRED',
      message: expect.stringMatching(/maintenance ended on \d{4}-\d\d-\d\d, before this release came out/),
    });
    const hidden = await clients.entitled!.request('GET', `/api/downloads/file/${releases.hidden!.id}`);
    const missing = await clients.entitled!.request('GET', '/api/downloads/file/424242');
    const otherFile = await clients.entitled!.request('GET', `/api/downloads/file/${releases.open!.id}/${releases.pro!.fileId}`);
    for (const answer of [hidden, missing, otherFile]) {
      expect(answer.status).toBe(403);
      expect(await answer.json()).toEqual({ message: 'This release is not available for download.' });
    }
  });

  it('lets admins tell a missing file from a missing release', async () => {
    expect((await clients.admin!.request('GET', '/api/downloads/file/424242')).status).toBe(404);
    const wrongFile = await clients.admin!.request('GET', `/api/downloads/file/${releases.open!.id}/${releases.pro!.fileId}`);
    expect(wrongFile.status).toBe(404);
    expect(await wrongFile.json()).toEqual({ message: 'This file does not exist.' });
  });
});
