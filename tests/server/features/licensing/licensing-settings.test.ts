// GET/PUT /api/admin/licensing-settings (issue 12, items 5 and 7): defaults until saved, partial saves,
// 422 per field with nothing changed, admin only.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAdminFixture, json, type AdminFixture } from '../../admin/admin-fixture.ts';

const PATH = '/api/admin/licensing-settings';

let fixture: AdminFixture;
beforeEach(async () => {
  fixture = await createAdminFixture();
});
afterEach(() => fixture.ctx.cleanup());

describe('licensing settings', () => {
  it('start at trial 1, perpetual 3, no automatic trials, and keep what the admin saves', async () => {
    const { admin } = fixture;
    expect(await json(await admin.request('GET', PATH))).toEqual({ trial_max_machines: 1, perpetual_max_machines: 3, auto_grant_trials: 0 });

    const saved = await admin.request('PUT', PATH, { trial_max_machines: '2', perpetual_max_machines: 25, auto_grant_trials: true });
    expect(saved.status).toBe(200);
    expect(await json(saved)).toEqual({ message: 'Licensing settings saved.', trial_max_machines: 2, perpetual_max_machines: 25, auto_grant_trials: 1 });

    // Left out, a field keeps its value.
    expect(await json(await admin.request('PUT', PATH, { auto_grant_trials: 'off' }))).toMatchObject({
      trial_max_machines: 2,
      perpetual_max_machines: 25,
      auto_grant_trials: 0,
    });
    expect(await json(await admin.request('GET', PATH))).toEqual({ trial_max_machines: 2, perpetual_max_machines: 25, auto_grant_trials: 0 });
  });

  it('answers 422 per field for bad values and changes nothing', async () => {
    const { admin } = fixture;
    await admin.request('PUT', PATH, { trial_max_machines: 4 });
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ trial_max_machines: 0 }, { trial_max_machines: ['The trial max machines field must be at least 1.'] }],
      [
        { perpetual_max_machines: 1001, trial_max_machines: 2 },
        { perpetual_max_machines: ['The perpetual max machines field must not be greater than 1000.'] },
      ],
      [{ trial_max_machines: 'lots' }, { trial_max_machines: ['The trial max machines field must be a whole number.'] }],
      [
        { auto_grant_trials: 'sometimes', trial_max_machines: 1.5 },
        {
          trial_max_machines: ['The trial max machines field must be a whole number.'],
          auto_grant_trials: ['The auto grant trials field must be true or false.'],
        },
      ],
    ];
    for (const [body, errors] of cases) {
      const response = await admin.request('PUT', PATH, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect((await json<{ errors: unknown }>(response)).errors).toEqual(errors);
    }
    expect(await json(await admin.request('GET', PATH))).toEqual({ trial_max_machines: 4, perpetual_max_machines: 3, auto_grant_trials: 0 });
  });

  it('are for admins only: 403 for a user, and nothing changes', async () => {
    const { user } = fixture;
    expect((await user.request('GET', PATH)).status).toBe(403);
    expect((await user.request('PUT', PATH, { auto_grant_trials: 1 })).status).toBe(403);
    expect(await json(await fixture.admin.request('GET', PATH))).toMatchObject({ auto_grant_trials: 0 });
  });
});
