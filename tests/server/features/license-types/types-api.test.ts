// License types as editions (issue 24, item 1; docs/admin-api.md#license-types): the admin's GET/POST/PUT/
// DELETE /api/license/types, their validation (422 per field, nothing stored), trial and perpetual kept
// with their ids, 409 while a license uses a type, and a type's defaults in a grant that leaves them out.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAdminFixture, json, type AdminFixture } from '../../admin/admin-fixture.ts';
import { ensureLicenseTypes } from '../../../../server/features/license-types/index.ts';

type TypeView = {
  id: number;
  name: string;
  entitlements: string[];
  max_machines: number;
  duration_days: number;
  maintenance_days: number;
  floating: 0 | 1;
  lease_minutes: number;
  built_in: 0 | 1;
  licenses: number;
};
const PATH = '/api/license/types';
const PRO = { name: 'Pro', entitlements: ['PRO_EXPORT', 'CAD_IMPORT', 'PRO_EXPORT'], max_machines: 2, duration_days: 365, maintenance_days: 180 };

let fixture: AdminFixture;
beforeEach(async () => {
  fixture = await createAdminFixture({ fakeClock: true });
});
afterEach(() => fixture.ctx.cleanup());

const list = async () => (await json<{ license_types: TypeView[] }>(await fixture.admin.request('GET', PATH))).license_types;
const create = (body: Record<string, unknown>) => fixture.admin.request('POST', PATH, body);

describe('GET /api/license/types', () => {
  it('lists trial and perpetual with the defaults they always had, and keeps their ids across starts', async () => {
    const before = await list();
    expect(before).toMatchObject([
      { name: 'trial', max_machines: 1, duration_days: 30, maintenance_days: 0, floating: 0, lease_minutes: 15, entitlements: [], built_in: 1, licenses: 0 },
      { name: 'perpetual', max_machines: 3, duration_days: 0, maintenance_days: 0, floating: 0, entitlements: [], built_in: 1 },
    ]);
    ensureLicenseTypes(fixture.ctx.db);
    expect((await list()).map((type) => [type.id, type.name])).toEqual(before.map((type) => [type.id, type.name]));
  });
});

describe('POST and PUT /api/license/types', () => {
  it('creates a type (201) with its codes sorted once each, and updates only the fields sent', async () => {
    const created = await create(PRO);
    expect(created.status).toBe(201);
    const { license_type: pro } = await json<{ license_type: TypeView }>(created);
    expect(pro).toMatchObject({ name: 'Pro', entitlements: ['CAD_IMPORT', 'PRO_EXPORT'], max_machines: 2, floating: 0, lease_minutes: 15, built_in: 0 });

    const saved = await fixture.admin.request('PUT', `${PATH}/${pro.id}`, { floating: 1, lease_minutes: '30', max_machines: 5 });
    expect(saved.status).toBe(200);
    expect((await json<{ license_type: TypeView }>(saved)).license_type).toMatchObject({
      name: 'Pro',
      entitlements: ['CAD_IMPORT', 'PRO_EXPORT'],
      duration_days: 365,
      floating: 1,
      lease_minutes: 30,
      max_machines: 5,
    });
  });

  it('answers 422 per field for bad values, and stores nothing', async () => {
    await create(PRO);
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ entitlements: ['PRO_EXPORT'] }, { name: ['The name field is required.'] }],
      [{ name: 'pro' }, { name: ['A license type with this name already exists.'] }],
      [
        { name: 'Lab', entitlements: ['pro', 'X'] },
        // One message per bad code.
        {
          entitlements: Array.from({ length: 2 }, () => 'Each entitlements code must be a capital letter followed by 1 to 31 capitals, digits or underscores.'),
        },
      ],
      [{ name: 'Lab', entitlements: 'PRO' }, { entitlements: ['The entitlements field must be a list of codes.'] }],
      [{ name: 'Lab', lease_minutes: 0 }, { lease_minutes: ['The lease minutes field must be at least 1.'] }],
      [{ name: 'Lab', lease_minutes: 1441 }, { lease_minutes: ['The lease minutes field must not be greater than 1440.'] }],
      [
        { name: 'Lab', max_machines: 0, floating: 'maybe' },
        { max_machines: ['The max machines field must be at least 1.'], floating: [expect.any(String)] },
      ],
      [{ name: 'Lab', duration_days: -1 }, { duration_days: ['The duration days field must be at least 0.'] }],
    ];
    for (const [body, errors] of cases) {
      const response = await create(body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      const answer = await json<{ message: string; errors: Record<string, string[]> }>(response);
      expect(answer.errors, JSON.stringify(body)).toEqual(errors);
      expect(answer.message).toBe(Object.values(answer.errors)[0]?.[0]);
    }
    expect((await list()).map((type) => type.name)).toEqual(['trial', 'perpetual', 'Pro']);
  });

  it('keeps the names of trial and perpetual, and a trial of at least one day', async () => {
    const trialId = fixture.typeId('trial');
    const renamed = await fixture.admin.request('PUT', `${PATH}/${trialId}`, { name: 'Evaluation' });
    expect(renamed.status).toBe(422);
    const noDays = await fixture.admin.request('PUT', `${PATH}/${trialId}`, { duration_days: 0 });
    expect((await json<{ errors: unknown }>(noDays)).errors).toEqual({ duration_days: ['The trial type needs a duration of at least 1 day.'] });
    expect((await list())[0]).toMatchObject({ name: 'trial', duration_days: 30 });
    expect((await fixture.admin.request('PUT', `${PATH}/999`, { max_machines: 2 })).status).toBe(404);
  });
});

describe('DELETE /api/license/types/{id}', () => {
  it('answers 409 while a license uses the type or for trial and perpetual, and deletes an unused type', async () => {
    const { license_type: pro } = await json<{ license_type: TypeView }>(await create(PRO));
    const granted = await fixture.admin.request('POST', '/api/license/store', { license_type_id: pro.id, user_id: fixture.user.user.id, active: 1 });
    const { license } = await json<{ license: { id: number } }>(granted);

    const refused = await fixture.admin.request('DELETE', `${PATH}/${pro.id}`);
    expect(refused.status).toBe(409);
    expect(await json(refused)).toMatchObject({ message: '1 license uses this type; change or delete it first.' });
    expect((await fixture.admin.request('DELETE', `${PATH}/${fixture.typeId('perpetual')}`)).status).toBe(409);
    expect((await list()).find((type) => type.id === pro.id)?.licenses).toBe(1);

    await fixture.admin.request('DELETE', `/api/license/delete/${license.id}`);
    const deleted = await fixture.admin.request('DELETE', `${PATH}/${pro.id}`);
    expect(deleted.status).toBe(200);
    expect((await list()).map((type) => type.name)).toEqual(['trial', 'perpetual']);
    expect((await fixture.admin.request('DELETE', `${PATH}/${pro.id}`)).status).toBe(404);
  });
});

describe("a type's defaults in a grant", () => {
  it('give a license left without them its machines, expiry, maintenance and entitlements', async () => {
    const { license_type: pro } = await json<{ license_type: TypeView }>(await create(PRO));
    const granted = await fixture.admin.request('POST', '/api/license/store', { license_type_id: pro.id, user_id: fixture.user.user.id, active: 1 });
    expect(granted.status).toBe(201);
    expect((await json<{ license: unknown }>(granted)).license).toMatchObject({
      type: 'Pro',
      max_machines: 2,
      activated_at: '2026-01-01T00:00:00.000Z',
      expire_date: '2027-01-01T00:00:00.000Z',
      maintenance_until: '2026-06-30T00:00:00.000Z',
      entitlements: ['CAD_IMPORT', 'PRO_EXPORT'],
      extra_entitlements: [],
    });
    // An edition with duration 0 never expires.
    const site = await json<{ license_type: TypeView }>(await create({ name: 'Site', max_machines: 50 }));
    const forever = await fixture.admin.request('POST', '/api/license/store', {
      license_type_id: site.license_type.id,
      user_id: fixture.user.user.id,
      active: 1,
    });
    expect((await json<{ license: unknown }>(forever)).license).toMatchObject({
      expire_date: null,
      maintenance_until: null,
      status: { code: 'VALID', text: 'Site' },
    });
  });

  it('are for admins only', async () => {
    expect((await fixture.user.request('GET', PATH)).status).toBe(403);
    expect((await fixture.user.request('POST', PATH, PRO)).status).toBe(403);
    expect((await list()).map((type) => type.name)).toEqual(['trial', 'perpetual']);
  });
});
