// GET/PUT /api/admin/licensing-settings (issue 12, item 7): off until saved, 422 with nothing changed, admin
// only. The per-type machine limits moved to the license types (issue 24, item 1): the saved values of
// before are migrated into the types once, and sent here they are dropped.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAdminFixture, json, type AdminFixture } from '../../admin/admin-fixture.ts';
import { ensureLicenseTypes } from '../../../../server/features/license-types/index.ts';
import { getSetting, setSetting, deleteSetting } from '../../../../server/db/queries/settings.ts';
import { createTestContext } from '../../../helpers/test-context.ts';
import { listLicenseTypes } from '../../../../server/features/license-types/queries.ts';

const PATH = '/api/admin/licensing-settings';

let fixture: AdminFixture;
beforeEach(async () => {
  fixture = await createAdminFixture();
});
afterEach(() => fixture.ctx.cleanup());

describe('licensing settings', () => {
  it('start without automatic trials, keep what the admin saves, and drop the old machine limits', async () => {
    const { admin } = fixture;
    expect(await json(await admin.request('GET', PATH))).toEqual({ auto_grant_trials: 0 });
    const saved = await admin.request('PUT', PATH, { trial_max_machines: '2', auto_grant_trials: true });
    expect(saved.status).toBe(200);
    expect(await json(saved)).toEqual({ message: 'Licensing settings saved.', auto_grant_trials: 1 });
    expect(await json(await admin.request('GET', PATH))).toEqual({ auto_grant_trials: 1 });
    // The limit sent to the old place changed nothing: the trial type keeps its own.
    const types = await json<{ license_types: Array<{ name: string; max_machines: number }> }>(await admin.request('GET', '/api/license/types'));
    expect(types.license_types.find((type) => type.name === 'trial')?.max_machines).toBe(1);
  });

  it('answers 422 for a bad value and changes nothing', async () => {
    const { admin } = fixture;
    const response = await admin.request('PUT', PATH, { auto_grant_trials: 'sometimes' });
    expect(response.status).toBe(422);
    expect((await json<{ errors: unknown }>(response)).errors).toEqual({ auto_grant_trials: ['The auto grant trials field must be true or false.'] });
    expect(await json(await admin.request('GET', PATH))).toEqual({ auto_grant_trials: 0 });
  });

  it('are for admins only: 403 for a user, and nothing changes', async () => {
    const { user } = fixture;
    expect((await user.request('GET', PATH)).status).toBe(403);
    expect((await user.request('PUT', PATH, { auto_grant_trials: 1 })).status).toBe(403);
    expect(await json(await fixture.admin.request('GET', PATH))).toMatchObject({ auto_grant_trials: 0 });
  });
});

describe('the move of the machine limits into the types', () => {
  it('gives trial and perpetual the limits an admin had saved, once, and removes the old settings', () => {
    const ctx = createTestContext();
    try {
      // A database of before issue 24: types without their defaults, the admin's saved limits in settings.
      ensureLicenseTypes(ctx.db);
      deleteSetting(ctx.db, 'licensing.types_hold_defaults');
      setSetting(ctx.db, 'licensing.trial_max_machines', '2');
      setSetting(ctx.db, 'licensing.perpetual_max_machines', '7');
      const ids = listLicenseTypes(ctx.db).map((type) => type.id);

      ensureLicenseTypes(ctx.db);
      const byName = new Map(listLicenseTypes(ctx.db).map((type) => [type.name, type]));
      expect(byName.get('trial')).toMatchObject({ max_machines: 2, duration_days: 30 });
      expect(byName.get('perpetual')).toMatchObject({ max_machines: 7, duration_days: 0 });
      expect(listLicenseTypes(ctx.db).map((type) => type.id)).toEqual(ids);
      expect(getSetting(ctx.db, 'licensing.trial_max_machines')).toBeUndefined();
      expect(getSetting(ctx.db, 'licensing.perpetual_max_machines')).toBeUndefined();

      // Once: an admin's later change of the type is not undone at the next start.
      setSetting(ctx.db, 'licensing.trial_max_machines', '9');
      ensureLicenseTypes(ctx.db);
      expect(listLicenseTypes(ctx.db).find((type) => type.name === 'trial')?.max_machines).toBe(2);
    } finally {
      ctx.cleanup();
    }
  });
});
