// The licensing API's limits (issue 12, item 4): per key and per client address (429 with Retry-After, on a
// fake clock), and the machine limit under concurrency, in one process and across two serving processes
// of the real product (docs/decisions/0022-one-process-model.md).
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createUser } from '../../../helpers/auth.ts';
import { killAllServers, startServer } from '../../../helpers/server-process.ts';
import { makeTempDir } from '../../../helpers/test-context.ts';
import { openDatabase } from '../../../../server/db/client.ts';
import { insertLicense } from '../../../../server/features/licensing/queries.ts';
import { licenseMachines } from '../../../../server/db/schema.ts';
import { ensureLicenseTypes, listLicenseTypes } from '../../../../server/features/license-types/index.ts';
import { insertLicenseType } from '../../../../server/features/license-types/queries.ts';
import { generateLicenseKey } from '../../../../server/auth/license-keys.ts';
import { API, body, createLicensingFixture, type LicensingFixture } from './licensing-fixture.ts';

/** A 3-machine trial (or a 3-seat floating license) in a fresh data directory, before the product starts on it. */
async function seedLicense(dataDir: string, options: { floating?: boolean } = {}): Promise<{ key: string; licenseId: number }> {
  const db = openDatabase(path.join(dataDir, 'site.db'));
  try {
    ensureLicenseTypes(db);
    const owner = await createUser({ db, now: () => Date.now() }, { email: 'owner@example.test' });
    const trial = listLicenseTypes(db).find((type) => type.name === 'trial');
    const type = options.floating ? insertLicenseType(db, { name: 'Lab', floating: 1, lease_minutes: 15, max_machines: 3 }) : trial;
    const license = insertLicense(db, {
      license_type_id: type?.id ?? 0,
      user_id: owner.id,
      active: 1,
      expire: 30,
      activated_at: new Date().toISOString(),
      expire_date: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      max_machines: 3,
    });
    return { key: license.key ?? '', licenseId: license.id };
  } finally {
    db.$client.close();
  }
}

let f: LicensingFixture | undefined;
afterEach(async () => {
  f?.finish();
  f = undefined;
  await killAllServers();
});

describe('rate limits', () => {
  it('refuse a key past its limit with 429 and Retry-After, known or unknown alike, and allow it again later', async () => {
    f = await createLicensingFixture({ LICENSING_KEY_REQUESTS_PER_MINUTE: '3' });
    const known = f.license().key ?? '';
    const unknown = generateLicenseKey();
    for (const key of [known, unknown]) {
      for (let i = 0; i < 3; i++) expect((await f.call('/validate', { key })).status).toBe(200);
      const refused = await f.call('/validate', { key });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
      expect(await body(refused)).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('Too many requests') });
      // Every path counts against the same key.
      expect((await f.call('/activate', { key, fingerprint: 'fp' })).status).toBe(429);
    }
    // Another key is not affected; the key typed differently is the same key.
    expect((await f.call('/validate', { key: generateLicenseKey() })).status).toBe(200);
    expect((await f.call('/validate', { key: known.toLowerCase() })).status).toBe(429);

    f.ctx.advance(120_000);
    expect((await f.call('/validate', { key: known })).status).toBe(200);
  });

  it('count every spelling of one key in one bucket: O for 0 and I or L for 1 do not make new ones (issue 29, item 3)', async () => {
    f = await createLicensingFixture({ LICENSING_KEY_REQUESTS_PER_MINUTE: '3' });
    const spellings = ['DCTL-Q1NC1-00000-11111-22222-33333-44444', 'DCTL-QINC1-O0000-11111-22222-33333-44444', ' dctl-qlncl-ooooo-iiiii-22222-33333-44444 '];
    for (const key of spellings) expect((await f.call('/validate', { key })).status, key).toBe(200);
    const respelled = await f.call('/validate', { key: 'DCTL-QLNCI-0O0O0-LLLLL-22222-33333-44444' });
    expect(respelled.status).toBe(429);
    // Text that is no key at all keeps a bucket of its own, by its trimmed capitals.
    expect((await f.call('/validate', { key: 'not a key' })).status).toBe(200);
  });

  it('refuse an address past its limit whatever the keys, and no other address', async () => {
    f = await createLicensingFixture({ LICENSING_REQUESTS_PER_MINUTE: '5', TRUST_PROXY: 'true' });
    const from = (address: string) => ({ 'X-Forwarded-For': address });
    for (let i = 0; i < 5; i++) expect((await f.call('/validate', { key: generateLicenseKey() }, from('203.0.113.7'))).status).toBe(200);
    const refused = await f.call('/validate', { key: generateLicenseKey() }, from('203.0.113.7'));
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(120);
    expect((await f.call('/validate', { key: generateLicenseKey() }, from('198.51.100.1'))).status).toBe(200);
    // Malformed calls count too, and are refused before their body is read.
    expect((await f.call('/validate', 'not json', from('203.0.113.7'))).status).toBe(429);
    f.ctx.advance(retryAfter * 1000);
    expect((await f.call('/validate', { key: generateLicenseKey() }, from('203.0.113.7'))).status).toBe(200);
  });
});

describe('the machine limit under concurrency', () => {
  it('holds for 20 simultaneous activations of a 3-machine license in one process', async () => {
    f = await createLicensingFixture();
    const license = f.license({ max_machines: 3 });
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => f!.call('/activate', { key: license.key, fingerprint: `machine-${i}` }).then((r) => r.status)),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 409)).toHaveLength(17);
    expect(f.ctx.db.select().from(licenseMachines).where(eq(licenseMachines.license_id, license.id)).all()).toHaveLength(3);
  });

  it.each([
    ['node-locked machines', false],
    ['floating seats (issue 24)', true],
  ])(
    'holds for 20 simultaneous activations reaching two serving processes of the real product: %s',
    async (_label, floating) => {
      const dataDir = makeTempDir('site-licensing-');
      fs.mkdirSync(path.join(dataDir, 'content'), { recursive: true });
      const { key, licenseId } = await seedLicense(dataDir, { floating });
      try {
        const server = await startServer(dataDir, { WEB_WORKERS: '1', SERVED_BY_HEADER: 'true' });
        // The worker binds its port a moment after the primary answers: wait until both processes answer.
        const seen = new Set<string | null>();
        await vi.waitFor(
          async () => {
            const response = await fetch(`${server.base}${API}/keys`, { headers: { Connection: 'close' } });
            await response.arrayBuffer();
            seen.add(response.headers.get('X-Served-By'));
            expect(seen.size).toBe(2);
          },
          { timeout: 30_000, interval: 20 },
        );
        const answers = await Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            const response = await fetch(`${server.base}${API}/activate`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json', Connection: 'close' },
              body: JSON.stringify({ key, fingerprint: `machine-${i}` }),
            });
            await response.arrayBuffer();
            return { status: response.status, servedBy: response.headers.get('X-Served-By') };
          }),
        );
        // Both processes answered some of them: the seat count held across processes, not within one.
        expect(new Set(answers.map((answer) => answer.servedBy)).size).toBe(2);
        expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
        expect(answers.filter((answer) => answer.status === 409)).toHaveLength(17);
        // No key in what the product printed.
        expect(server.output()).not.toContain(key);
        const check = openDatabase(path.join(dataDir, 'site.db'));
        try {
          expect(check.select().from(licenseMachines).where(eq(licenseMachines.license_id, licenseId)).all()).toHaveLength(3);
        } finally {
          check.$client.close();
        }
      } finally {
        await killAllServers();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
