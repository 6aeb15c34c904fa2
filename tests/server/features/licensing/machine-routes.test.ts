// Machines from the browser (issue 12, items 6 and 7): the owner deactivates a machine and downloads a
// machine-bound file for an offline machine (a seat, exactly like the software's activate), an admin
// deactivates any machine and reads the license's events; nobody reaches another user's license.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyLicenseFile } from '../../../../server/features/licensing/verify-file.ts';
import { createUser, login } from '../../../helpers/auth.ts';
import { body, createLicensingFixture, START, type LicensingFixture } from './licensing-fixture.ts';

type Activation = { machine: { id: number } };
type Events = { events: { id: number; action: string; actor_kind: string; actor_name: string | null; detail: Record<string, unknown>; created_at: string }[] };

let f: LicensingFixture;
beforeEach(async () => {
  f = await createLicensingFixture();
});
afterEach(() => f.finish());

const activate = async (key: string | null, fingerprint: string) =>
  body<Activation>(await f.call('/activate', { key, fingerprint, name: `PC ${fingerprint}`, platform: 'linux' }));

describe('DELETE /api/user/licenses/{licenseId}/machines/{machineId} (owner)', () => {
  it('frees the seat (204) and records the owner as the actor', async () => {
    const license = f.license({ max_machines: 1 });
    const { machine } = await activate(license.key, 'fp-1');
    const response = await f.user.request('DELETE', `/api/user/licenses/${license.id}/machines/${machine.id}`);
    expect(response.status).toBe(204);
    expect((await f.call('/validate', { key: license.key, fingerprint: 'fp-1' }).then((r) => body(r))).code).toBe('NO_MACHINE');
    expect((await f.call('/activate', { key: license.key, fingerprint: 'fp-2' })).status).toBe(201);
    const events = await body<Events>(await f.admin.request('GET', `/api/license/${license.id}/events`));
    expect(events.events.find((event) => event.action === 'machine_deactivated')).toMatchObject({
      actor_kind: 'user',
      actor_name: 'Ann',
      detail: { fingerprint: 'fp-1' },
    });
  });

  it('answers 404 for a machine not on the license, and for someone else’s license (even an admin’s own route is separate)', async () => {
    const license = f.license();
    const { machine } = await activate(license.key, 'fp-1');
    expect((await f.user.request('DELETE', `/api/user/licenses/${license.id}/machines/${machine.id + 100}`)).status).toBe(404);
    await createUser(f.ctx, { email: 'bob@example.test', name: 'Bob' });
    const bob = await login(f.ctx.app, 'bob@example.test');
    const refused = await bob.request('DELETE', `/api/user/licenses/${license.id}/machines/${machine.id}`);
    expect(refused.status).toBe(404);
    expect(await body(refused)).toEqual({ message: 'License not found.' });
    expect((await f.admin.request('DELETE', `/api/user/licenses/${license.id}/machines/${machine.id}`)).status).toBe(404);
    expect((await f.call('/validate', { key: license.key, fingerprint: 'fp-1' }).then((r) => body(r))).code).toBe('VALID');
  });
});

describe('POST /api/user/licenses/{licenseId}/license-file (owner)', () => {
  it('answers a machine-bound .lic file that verifies, taking a seat like an activation', async () => {
    const license = f.license({ max_machines: 2 });
    const response = await f.user.request('POST', `/api/user/licenses/${license.id}/license-file`, { fingerprint: 'air-gapped-1', name: 'Lab' });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/jwt');
    expect(response.headers.get('Content-Disposition')).toBe(`attachment; filename="${license.key}.lic"`);
    const file = await response.text();
    const verified = await verifyLicenseFile(file, await f.jwks(), { now: new Date(START), fingerprint: 'air-gapped-1', issuer: 'http://localhost:4321' });
    expect(verified).toMatchObject({ ok: true, claims: { machine: { fingerprint: 'air-gapped-1', name: 'Lab' }, license: { id: license.id } } });

    // The seat is taken: the software sees the machine, and a second download for it renews, not adds.
    expect((await f.call('/validate', { key: license.key, fingerprint: 'air-gapped-1' }).then((r) => body(r))).code).toBe('VALID');
    expect((await f.user.request('POST', `/api/user/licenses/${license.id}/license-file`, { fingerprint: 'air-gapped-1' })).status).toBe(200);
    await activate(license.key, 'online');
    const full = await f.user.request('POST', `/api/user/licenses/${license.id}/license-file`, { fingerprint: 'air-gapped-2' });
    expect(full.status).toBe(409);
    expect(await body(full)).toMatchObject({ code: 'TOO_MANY_MACHINES', message: expect.any(String) });
    const events = await body<Events>(await f.admin.request('GET', `/api/license/${license.id}/events`));
    expect(events.events.map((event) => [event.action, event.actor_kind])).toEqual([
      ['machine_activated', 'software'],
      ['machine_activated', 'user'],
    ]);
  });

  it('refuses a suspended license (403 SUSPENDED), a missing fingerprint (422) and someone else’s license (404)', async () => {
    const suspended = f.license({ suspended: 1 });
    const refused = await f.user.request('POST', `/api/user/licenses/${suspended.id}/license-file`, { fingerprint: 'fp' });
    expect(refused.status).toBe(403);
    expect(await body(refused)).toMatchObject({ code: 'SUSPENDED' });
    const license = f.license();
    const missing = await f.user.request('POST', `/api/user/licenses/${license.id}/license-file`, {});
    expect(missing.status).toBe(422);
    expect(await body(missing)).toMatchObject({ errors: { fingerprint: ['The fingerprint field is required.'] } });
    // Control and bidi characters are refused here as at the software's activate (issue 29, item 2).
    const hostile = await f.user.request('POST', `/api/user/licenses/${license.id}/license-file`, {
      fingerprint: 'fp\u001b[2J',
      name: 'Lab\n  type perpetual',
    });
    expect(hostile.status).toBe(422);
    expect(Object.keys((await body<{ errors: Record<string, string[]> }>(hostile)).errors).sort()).toEqual(['fingerprint', 'name']);
    expect((await f.admin.request('POST', `/api/user/licenses/${license.id}/license-file`, { fingerprint: 'fp' })).status).toBe(404);
    expect(
      (await f.user.request('POST', `/api/user/licenses/${license.id}/license-file`, { fingerprint: 'fp' }, { headers: { 'X-XSRF-TOKEN': null } })).status,
    ).toBe(419);
  });
});

describe('admin: DELETE /api/license/{licenseId}/machines/{machineId}, GET /api/license/{licenseId}/events', () => {
  it('deactivates any machine (204) and lists the events newest first, with the acting admin’s name and never the key', async () => {
    const license = f.license();
    const { machine } = await activate(license.key, 'fp-1');
    f.ctx.advance(60_000);
    const response = await f.admin.request('DELETE', `/api/license/${license.id}/machines/${machine.id}`);
    expect(response.status).toBe(204);
    expect((await f.admin.request('DELETE', `/api/license/${license.id}/machines/${machine.id}`)).status).toBe(404);
    const answer = await f.admin.request('GET', `/api/license/${license.id}/events`);
    expect(answer.status).toBe(200);
    const { events } = await body<Events>(answer);
    expect(events).toEqual([
      {
        id: expect.any(Number),
        action: 'machine_deactivated',
        actor_kind: 'admin',
        actor_name: 'Boss',
        detail: { machine_id: machine.id, fingerprint: 'fp-1', name: 'PC fp-1', platform: 'linux' },
        created_at: new Date(START + 60_000).toISOString(),
      },
      {
        id: expect.any(Number),
        action: 'machine_activated',
        actor_kind: 'software',
        actor_name: null,
        detail: { machine_id: machine.id, fingerprint: 'fp-1', name: 'PC fp-1', platform: 'linux' },
        created_at: new Date(START).toISOString(),
      },
    ]);
    expect(JSON.stringify(events)).not.toContain(license.key);
  });

  it('is for admins only, and answers 404 for a license that does not exist', async () => {
    const license = f.license();
    const { machine } = await activate(license.key, 'fp-1');
    expect((await f.user.request('DELETE', `/api/license/${license.id}/machines/${machine.id}`)).status).toBe(403);
    expect((await f.user.request('GET', `/api/license/${license.id}/events`)).status).toBe(403);
    expect((await f.admin.request('GET', `/api/license/${license.id + 100}/events`)).status).toBe(404);
    expect((await f.admin.request('DELETE', `/api/license/${license.id + 100}/machines/${machine.id}`)).status).toBe(404);
  });
});
