// What a license gives (issue 24, items 2, 3 and 5): effective entitlements and the maintenance window in
// every answer (GET /api/user, getAll, validate, activate) and in the verified file; per-license overrides
// on store and update; ENTITLEMENTS_MISSING from validate (200) and activate (403, no seat taken); the owner's
// mail when an admin suspends, lifts, extends, or changes the machine limit or the entitlements; the
// owner's history in words; and Request License after an expired license (item 6).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyLicenseFile } from '../../../../server/features/licensing/verify-file.ts';
import { licenseEventText } from '../../../../common/license-history.ts';
import { readOutbox } from '../../../helpers/mail.ts';
import { json } from '../../admin/admin-fixture.ts';
import { body, createLicensingFixture, START, type LicensingFixture } from './licensing-fixture.ts';

type LicenseView = { id: number; key: string; type: string; entitlements: string[]; extra_entitlements: string[]; maintenance_until: string | null };

let f: LicensingFixture;
beforeEach(async () => {
  f = await createLicensingFixture();
});
afterEach(() => f.finish());

async function createPro(extra: Record<string, unknown> = {}): Promise<number> {
  const created = await f.admin.request('POST', '/api/license/types', {
    name: 'Pro',
    entitlements: ['PRO_EXPORT'],
    max_machines: 3,
    duration_days: 365,
    maintenance_days: 365,
    ...extra,
  });
  expect(created.status).toBe(201);
  return (await json<{ license_type: { id: number } }>(created)).license_type.id;
}

async function grantPro(fields: Record<string, unknown> = {}): Promise<LicenseView> {
  const typeId = await createPro();
  const stored = await f.admin.request('POST', '/api/license/store', { license_type_id: typeId, user_id: f.user.user.id, active: 1, ...fields });
  expect(stored.status).toBe(201);
  return (await json<{ license: LicenseView }>(stored)).license;
}

const TERMS = { type: 'Pro', entitlements: ['CAD_IMPORT', 'PRO_EXPORT'], maintenance_until: '2026-06-30T23:59:59.999Z' };

describe('effective entitlements and maintenance', () => {
  it('are the type’s plus the license’s own, in every answer and in the verified file', async () => {
    const license = await grantPro({ entitlements: ['CAD_IMPORT'], maintenance_until: '2026-06-30' });
    expect(license).toMatchObject({ ...TERMS, extra_entitlements: ['CAD_IMPORT'] });

    const own = await json<{ licenses: LicenseView[] }>(await f.user.request('GET', '/api/user'));
    expect(own.licenses[0]).toMatchObject(TERMS);
    const all = await json<{ licenses: LicenseView[] }>(await f.admin.request('GET', '/api/license/getAll'));
    expect(all.licenses.find((candidate) => candidate.id === license.id)).toMatchObject(TERMS);

    const validated = await body<{ license: unknown }>(await f.call('/validate', { key: license.key }));
    expect(validated.license).toMatchObject(TERMS);
    const activated = await f.call('/activate', { key: license.key, fingerprint: 'fp-1' });
    expect(activated.status).toBe(201);
    const answer = await body<{ license: unknown; license_file: string }>(activated);
    expect(answer.license).toMatchObject(TERMS);
    const verified = await verifyLicenseFile(answer.license_file, await f.jwks(), { now: new Date(START), fingerprint: 'fp-1' });
    expect(verified.ok && verified.claims.license).toMatchObject(TERMS);
  });

  it('follow an update: entitlements replaced, maintenance null for no limit, a changed type’s codes at once', async () => {
    const license = await grantPro();
    expect(license).toMatchObject({ entitlements: ['PRO_EXPORT'], maintenance_until: '2027-01-01T00:00:00.000Z' });
    const updated = await f.admin.request('PUT', `/api/license/update/${license.id}`, { entitlements: ['LAB_SEATS'], maintenance_until: null });
    expect((await json<{ license: unknown }>(updated)).license).toMatchObject({ entitlements: ['LAB_SEATS', 'PRO_EXPORT'], maintenance_until: null });
    const typeId = (await json<{ license_types: Array<{ id: number; name: string }> }>(await f.admin.request('GET', '/api/license/types'))).license_types.find(
      (type) => type.name === 'Pro',
    )?.id;
    await f.admin.request('PUT', `/api/license/types/${typeId}`, { entitlements: ['PRO_EXPORT', 'PRO_REPORTS'] });
    const validated = await body<{ license: unknown }>(await f.call('/validate', { key: license.key }));
    expect(validated.license).toMatchObject({ entitlements: ['LAB_SEATS', 'PRO_EXPORT', 'PRO_REPORTS'] });

    const bad = await f.admin.request('PUT', `/api/license/update/${license.id}`, { maintenance_until: 'soon', entitlements: ['lower'] });
    expect(bad.status).toBe(422);
    expect(Object.keys((await json<{ errors: object }>(bad)).errors).sort()).toEqual(['entitlements', 'maintenance_until']);
  });
});

describe('ENTITLEMENTS_MISSING', () => {
  it('answers validate 200 valid:false with what is missing, and VALID when everything asked is held', async () => {
    const license = await grantPro();
    const missing = await f.call('/validate', { key: license.key, entitlements: ['PRO_EXPORT', 'SITE_SERVER', 'CAD_IMPORT'] });
    expect(missing.status).toBe(200);
    expect(await body(missing)).toMatchObject({ valid: false, code: 'ENTITLEMENTS_MISSING', missing: ['CAD_IMPORT', 'SITE_SERVER'] });
    expect(await body(await f.call('/validate', { key: license.key, entitlements: ['PRO_EXPORT'] }))).toMatchObject({ valid: true, code: 'VALID' });
    // A bad code is a malformed request, not a missing feature.
    expect((await f.call('/validate', { key: license.key, entitlements: ['pro export'] })).status).toBe(422);
  });

  it('refuses activate with 403 and takes no seat', async () => {
    const license = await grantPro();
    const refused = await f.call('/activate', { key: license.key, fingerprint: 'fp-1', entitlements: ['SITE_SERVER'] });
    expect(refused.status).toBe(403);
    expect(await body(refused)).toMatchObject({ code: 'ENTITLEMENTS_MISSING', missing: ['SITE_SERVER'] });
    const own = await json<{ licenses: Array<{ machines: unknown[] }> }>(await f.user.request('GET', '/api/user'));
    expect(own.licenses[0]?.machines).toEqual([]);
    expect((await f.call('/activate', { key: license.key, fingerprint: 'fp-1', entitlements: ['PRO_EXPORT'] })).status).toBe(201);
  });
});

describe('the owner is told what an admin changed', () => {
  it('mails on suspend, unsuspend, extend, machine limit and entitlements, and the history says it in words', async () => {
    const license = await grantPro();
    const update = (fields: Record<string, unknown>) => f.admin.request('PUT', `/api/license/update/${license.id}`, fields);
    const subjects = () => readOutbox(f.ctx.config.outboxDir).filter((mail) => mail.subject.endsWith('Your license has changed'));

    await update({ suspended: 1 });
    await update({ suspended: 0 });
    await update({ expire: 730 });
    await update({ max_machines: 5 });
    await update({ entitlements: ['CAD_IMPORT'] });
    // Not worth a mail: maintenance alone.
    await update({ maintenance_until: '2030-01-01' });
    const mails = subjects();
    expect(mails).toHaveLength(5);
    const texts = mails.map((mail) => mail.text ?? '');
    expect(texts.some((text) => text.includes('Suspended: the software refuses it until it is lifted'))).toBe(true);
    expect(texts.some((text) => text.includes('Suspension lifted'))).toBe(true);
    expect(texts.some((text) => text.includes('Extended until 2028-01-01 (was 2027-01-01)'))).toBe(true);
    expect(texts.some((text) => text.includes('Machine limit changed from 3 to 5'))).toBe(true);
    expect(texts.some((text) => text.includes('Features added CAD_IMPORT'))).toBe(true);
    for (const mail of mails) expect(mail.to).toBe('ann@example.test');
    for (const mail of mails) expect(mail.text).not.toContain(license.key);

    // The owner's history: the same events in the same words, newest first, without the admin's name.
    const history = await f.user.request('GET', `/api/user/licenses/${license.id}/events`);
    expect(history.status).toBe(200);
    const { events } = await json<{ events: Array<{ action: string; detail: Record<string, unknown>; actor_name?: string }> }>(history);
    expect(events.map(licenseEventText)).toEqual([
      'Updates included until 2030-01-01 (was 2027-01-01)',
      'Features added CAD_IMPORT',
      'Machine limit changed from 3 to 5',
      'Extended until 2028-01-01 (was 2027-01-01)',
      'Suspension lifted',
      'Suspended: the software refuses it until it is lifted',
      'Granted: Pro, 3 machines, expires 2027-01-01',
    ]);
    expect(events.every((event) => event.actor_name === undefined)).toBe(true);
    // Someone else's license answers like one that does not exist.
    expect((await f.admin.request('GET', `/api/user/licenses/${license.id}/events`)).status).toBe(404);
  });
});

describe('Request License after an expired license (issue 24, item 6)', () => {
  it('is no longer refused once the license has expired; an admin decides', async () => {
    f.license({ expire_date: new Date(START + 1000).toISOString() });
    const ask = () => f.user.request('GET', `/api/user/request-license/${f.user.user.id}`, undefined, { headers: { 'X-Requested-With': 'XMLHttpRequest' } });
    expect((await ask()).status).toBe(422);
    f.ctx.advance(2000);
    const asked = await ask();
    expect(asked.status).toBe(200);
    expect(await json(asked)).toMatchObject({ user: { license_request: 1 } });
  });
});
