// Licenses through the admin API: granting a trial (active at once, expiry from the days, mail to the
// user, flags on the user, card fields on the dashboard), perpetual licenses, updates, deletes, validation.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { latestMailTo, readOutbox } from '../../../helpers/mail.ts';
import { createAdminFixture, json, type AdminFixture } from '../../admin/admin-fixture.ts';

type LicenseAnswer = {
  message: string;
  license: {
    id: number;
    user_id: number;
    license_type_id: number;
    active: number;
    expire: number;
    activated_at: string | null;
    expire_date: string | null;
    license_type: { name: string };
  };
  user: { id: number; license_request: number; license_granted: number };
  granted: boolean;
  mail_sent: boolean | null;
};

let fixture: AdminFixture;
beforeEach(async () => {
  // Fake clock at 2026-01-01T00:00:00Z.
  fixture = await createAdminFixture({ fakeClock: true });
});
afterEach(() => fixture.ctx.cleanup());

describe('granting a trial license', () => {
  it('activates it now, computes the expiry, answers the user’s request, mails the user, and shows on the dashboard', async () => {
    const { admin, user } = fixture;
    await user.request('GET', `/api/user/request-license/${user.user.id}`);
    expect(fixture.stored(user.user.id)?.license_request).toBe(1);

    // The form hides Active for a trial; even an explicit 0 does not leave a granted trial inactive.
    const response = await admin.request('POST', '/api/license/store', {
      license_type_id: fixture.typeId('trial'),
      user_id: user.user.id,
      active: 0,
      expire: '31',
    });
    expect(response.status).toBe(201);
    const body = await json<LicenseAnswer>(response);
    expect(body).toMatchObject({
      message: 'License granted; the user was e-mailed.',
      granted: true,
      mail_sent: true,
      license: {
        user_id: user.user.id,
        active: 1,
        expire: 31,
        activated_at: '2026-01-01T00:00:00.000Z',
        expire_date: '2026-02-01T00:00:00.000Z',
        license_type: { name: 'trial' },
      },
      user: { id: user.user.id, license_request: 0, license_granted: 1 },
    });

    const mail = latestMailTo(fixture.ctx.config.outboxDir, 'ann@example.test');
    expect(mail?.subject).toContain('Your license is active');
    expect(mail?.text).toContain('Your trial license');
    expect(mail?.text).toContain('valid until 2026-02-01 00:00 UTC');

    // The dashboard's license card reads these fields (docs/product/accounts.md#dashboard).
    const dashboard = await json<{ user: { license_granted: number; license_request: number }; licenses: Array<Record<string, unknown>> }>(
      await user.request('GET', '/api/user'),
    );
    expect(dashboard.user).toMatchObject({ license_granted: 1, license_request: 0 });
    expect(dashboard.licenses).toEqual([
      expect.objectContaining({
        active: 1,
        activated_at: '2026-01-01T00:00:00.000Z',
        expire_date: '2026-02-01T00:00:00.000Z',
        license_type: { name: 'trial' },
      }),
    ]);
  });

  it('extending the days moves the expiry from the original activation and mails the change, not the key again', async () => {
    const { ctx, admin, user } = fixture;
    const { license } = await json<LicenseAnswer>(
      await admin.request('POST', '/api/license/store', { license_type_id: fixture.typeId('trial'), user_id: user.user.id, expire: 30 }),
    );
    // Later (within the admin's session): the expiry still counts from the first activation.
    ctx.advance(60 * 60 * 1000);
    const updated = await json<LicenseAnswer>(
      await admin.request('PUT', `/api/license/update/${license.id}`, { license_type_id: fixture.typeId('trial'), user_id: user.user.id, expire: 60 }),
    );
    expect(updated).toMatchObject({
      message: 'License saved.',
      granted: false,
      mail_sent: true,
      license: { activated_at: '2026-01-01T00:00:00.000Z', expire_date: '2026-03-02T00:00:00.000Z' },
    });
    const mails = readOutbox(ctx.config.outboxDir);
    expect(mails).toHaveLength(2);
    expect(mails.map((mail) => mail.subject)).toContain(`${ctx.config.siteName}: Your license has changed`);
    expect(mails.find((mail) => mail.subject.endsWith('has changed'))?.text).toContain('Extended until 2026-03-02 (was 2026-01-31)');
  });
});

describe('perpetual licenses', () => {
  it('are stored inactive unless Active is ticked, never expire, and mail the user when activated', async () => {
    const { admin, user } = fixture;
    const created = await json<LicenseAnswer>(
      await admin.request('POST', '/api/license/store', { license_type_id: fixture.typeId('perpetual'), user_id: user.user.id, active: false, expire: 99 }),
    );
    expect(created).toMatchObject({
      granted: false,
      mail_sent: null,
      license: { active: 0, expire: 0, activated_at: null, expire_date: null },
      user: { license_granted: 0 },
    });
    expect(readOutbox(fixture.ctx.config.outboxDir)).toHaveLength(0);

    const activated = await json<LicenseAnswer>(
      await admin.request('PUT', `/api/license/update/${created.license.id}`, {
        license_type_id: fixture.typeId('perpetual'),
        user_id: user.user.id,
        active: true,
      }),
    );
    expect(activated).toMatchObject({
      granted: true,
      mail_sent: true,
      license: { active: 1, expire_date: null, activated_at: '2026-01-01T00:00:00.000Z' },
      user: { license_granted: 1 },
    });
    expect(latestMailTo(fixture.ctx.config.outboxDir, 'ann@example.test')?.text).toContain('It does not expire.');

    const deactivated = await json<LicenseAnswer>(await admin.request('PUT', `/api/license/update/${created.license.id}`, { active: 0 }));
    expect(deactivated).toMatchObject({ granted: false, license: { active: 0, activated_at: null }, user: { license_granted: 0 } });
  });
});

describe('deleting a license', () => {
  it('removes it and keeps license_granted in step with what remains', async () => {
    const { admin, user } = fixture;
    const trial = await json<LicenseAnswer>(
      await admin.request('POST', '/api/license/store', { license_type_id: fixture.typeId('trial'), user_id: user.user.id, expire: 30 }),
    );
    const perpetual = await json<LicenseAnswer>(
      await admin.request('POST', '/api/license/store', { license_type_id: fixture.typeId('perpetual'), user_id: user.user.id, active: 1 }),
    );
    const first = await admin.request('DELETE', `/api/license/delete/${trial.license.id}`);
    expect(await json(first)).toMatchObject({ message: 'License deleted.', id: trial.license.id, user: { license_granted: 1 } });
    const second = await json(await admin.request('DELETE', `/api/license/delete/${perpetual.license.id}`));
    expect(second).toMatchObject({ user: { license_granted: 0 } });
    expect((await admin.request('DELETE', `/api/license/delete/${perpetual.license.id}`)).status).toBe(404);
    expect((await json<{ licenses: unknown[] }>(await user.request('GET', '/api/user'))).licenses).toEqual([]);
  });
});

describe('validation', () => {
  it('answers 422 per field and stores nothing', async () => {
    const { admin, user } = fixture;
    const cases: Array<[unknown, string[]]> = [
      [{}, ['license_type_id', 'user_id']],
      [{ license_type_id: 999, user_id: 999_999 }, ['license_type_id', 'user_id']],
      [{ license_type_id: fixture.typeId('trial'), user_id: user.user.id, expire: -1 }, ['expire']],
      [{ license_type_id: fixture.typeId('trial'), user_id: user.user.id, expire: 1.5 }, ['expire']],
      [{ license_type_id: fixture.typeId('trial'), user_id: user.user.id, expire: 'ten' }, ['expire']],
      [{ license_type_id: fixture.typeId('trial'), user_id: user.user.id, expire: 0 }, ['expire']],
      [{ license_type_id: fixture.typeId('perpetual'), user_id: user.user.id, active: 'maybe' }, ['active']],
    ];
    for (const [payload, fields] of cases) {
      const response = await admin.request('POST', '/api/license/store', payload);
      expect(response.status, JSON.stringify(payload)).toBe(422);
      expect(Object.keys((await json<{ errors: object }>(response)).errors).sort(), JSON.stringify(payload)).toEqual(fields);
    }
    const words = await json<{ errors: Record<string, string[]> }>(
      await admin.request('POST', '/api/license/store', { license_type_id: 'x', user_id: user.user.id, expire: 'ten' }),
    );
    expect(words.errors).toEqual({
      license_type_id: ['The selected license type id is invalid.'],
      expire: ['The expire field must be a whole number of days.'],
    });
    const trialWithoutDays = await json<{ errors: { expire: string[] } }>(
      await admin.request('POST', '/api/license/store', { license_type_id: fixture.typeId('trial'), user_id: user.user.id, expire: 0 }),
    );
    expect(trialWithoutDays.errors.expire).toEqual(['A trial license needs an expiry of at least 1 day.']);
    expect((await json<{ licenses: unknown[] }>(await admin.request('GET', '/api/license/getAll'))).licenses).toEqual([]);
    expect(readOutbox(fixture.ctx.config.outboxDir)).toHaveLength(0);
  });

  it('refuses to move a license to another user, and answers 404 for unknown licenses', async () => {
    const { admin, user } = fixture;
    const { license } = await json<LicenseAnswer>(
      await admin.request('POST', '/api/license/store', { license_type_id: fixture.typeId('perpetual'), user_id: user.user.id }),
    );
    const moved = await admin.request('PUT', `/api/license/update/${license.id}`, { license_type_id: fixture.typeId('perpetual'), user_id: admin.user.id });
    expect(moved.status).toBe(422);
    expect((await json<{ errors: object }>(moved)).errors).toEqual({ user_id: ['A license cannot be moved to another user.'] });
    expect((await admin.request('PUT', '/api/license/update/9999', { license_type_id: fixture.typeId('perpetual') })).status).toBe(404);
  });
});
