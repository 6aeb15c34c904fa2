// Floating seats (issue 24, item 4; docs/licensing.md#floating-seats) on a fake clock: an activation is a
// lease of lease_minutes on one of max_machines seats; heartbeats renew it and answer a file that expires
// with the lease; a lapsed lease answers HEARTBEAT_DEAD and frees its seat at once; the license objects show
// the leases in use with their end; node-locked licenses keep their 30-day lease.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertLicenseType } from '../../../../server/features/license-types/queries.ts';
import { verifyLicenseFile } from '../../../../server/features/licensing/verify-file.ts';
import { json } from '../../admin/admin-fixture.ts';
import { body, createLicensingFixture, START, type LicensingFixture } from './licensing-fixture.ts';

const MINUTE = 60_000;
type Heartbeat = { code: string; valid: boolean; lease_expires_at?: string; license_file?: string };

let f: LicensingFixture;
let key: string;
beforeEach(async () => {
  f = await createLicensingFixture();
  const lab = insertLicenseType(f.ctx.db, { name: 'Lab', floating: 1, lease_minutes: 15, max_machines: 3 });
  key = f.license({ license_type_id: lab.id, max_machines: 3 }).key ?? '';
});
afterEach(() => f.finish());

const activate = (fingerprint: string) => f.call('/activate', { key, fingerprint, name: `PC ${fingerprint}` });
const heartbeat = async (fingerprint: string) => {
  const response = await f.call('/heartbeat', { key, fingerprint });
  expect(response.status).toBe(200);
  return body<Heartbeat>(response);
};

describe('floating leases', () => {
  it('take one of the seats for lease_minutes; a 4th activation waits for a lease to lapse, then succeeds', async () => {
    for (const fingerprint of ['a', 'b', 'c']) expect((await activate(fingerprint)).status).toBe(201);
    const fourth = await activate('d');
    expect(fourth.status).toBe(409);
    expect(await body(fourth)).toMatchObject({ code: 'TOO_MANY_MACHINES' });

    // a and b keep their leases alive; c stops at its start.
    f.ctx.advance(10 * MINUTE);
    for (const fingerprint of ['a', 'b']) expect(await heartbeat(fingerprint)).toMatchObject({ code: 'VALID', valid: true });
    expect((await activate('d')).status).toBe(409);
    f.ctx.advance(5 * MINUTE);
    // c's lease ended at 15 minutes: its seat is free at once, without anyone deactivating it.
    expect(await heartbeat('c')).toEqual(expect.objectContaining({ valid: false, code: 'HEARTBEAT_DEAD' }));
    expect((await activate('d')).status).toBe(201);
    expect((await activate('c')).status).toBe(409);
    // a renewed at 10 minutes holds until 25.
    expect(await heartbeat('a')).toMatchObject({ valid: true, lease_expires_at: new Date(START + 30 * MINUTE).toISOString() });
  });

  it('answer each heartbeat with a file that expires with the lease', async () => {
    const first = await body<{ machine: { lease_expires_at: string }; license_file: string }>(await activate('a'));
    expect(first.machine.lease_expires_at).toBe(new Date(START + 15 * MINUTE).toISOString());
    f.ctx.advance(14 * MINUTE);
    const beat = await heartbeat('a');
    expect(beat.lease_expires_at).toBe(new Date(START + 29 * MINUTE).toISOString());
    const keys = await f.jwks();
    const verified = await verifyLicenseFile(beat.license_file ?? '', keys, { now: new Date(START + 14 * MINUTE), fingerprint: 'a' });
    expect(verified.ok && verified.claims.exp).toBe((START + 29 * MINUTE) / 1000);
    // The file is refused once the lease is over, as the software checks it offline.
    expect(await verifyLicenseFile(beat.license_file ?? '', keys, { now: new Date(START + 29 * MINUTE + 1000), fingerprint: 'a' })).toMatchObject({
      ok: false,
      reason: 'EXPIRED',
    });
  });

  it('say HEARTBEAT_DEAD for an unknown machine and a deactivated one, whose seat is free', async () => {
    expect(await heartbeat('never')).toMatchObject({ valid: false, code: 'HEARTBEAT_DEAD' });
    for (const fingerprint of ['a', 'b', 'c']) await activate(fingerprint);
    expect((await f.call('/deactivate', { key, fingerprint: 'b' })).status).toBe(204);
    expect(await heartbeat('b')).toMatchObject({ valid: false, code: 'HEARTBEAT_DEAD' });
    expect((await activate('d')).status).toBe(201);
    expect(await body(await f.call('/heartbeat', { key: 'DCTL-NOPE', fingerprint: 'a' }))).toMatchObject({ valid: false, code: 'NOT_FOUND' });
  });

  it('show the seats in use with each lease’s end to the owner and the admin; a lapsed one no longer', async () => {
    await activate('a');
    f.ctx.advance(5 * MINUTE);
    await activate('b');
    f.ctx.advance(11 * MINUTE);
    const own = await json<{ licenses: Array<{ floating: number; lease_minutes: number; max_machines: number; machines: unknown[] }> }>(
      await f.user.request('GET', '/api/user'),
    );
    expect(own.licenses[0]).toMatchObject({
      floating: 1,
      lease_minutes: 15,
      max_machines: 3,
      machines: [{ fingerprint: 'b', name: 'PC b', lease_expires_at: new Date(START + 20 * MINUTE).toISOString() }],
    });
    const all = await json<{ licenses: Array<{ machines: unknown[] }> }>(await f.admin.request('GET', '/api/license/getAll'));
    expect(all.licenses[0]?.machines).toHaveLength(1);
    // validate counts only live leases too.
    expect(await body(await f.call('/validate', { key }))).toMatchObject({ license: { active_machines: 1 } });
    expect(await body(await f.call('/validate', { key, fingerprint: 'a' }))).toMatchObject({ code: 'NO_MACHINE' });
  });
});

describe('node-locked licenses', () => {
  it('keep the 30-day lease, and a heartbeat renews it as a check-in', async () => {
    const nodeLocked = f.license({ max_machines: 1 }).key ?? '';
    const activated = await body<{ machine: { lease_expires_at: string } }>(await f.call('/activate', { key: nodeLocked, fingerprint: 'pc' }));
    expect(activated.machine.lease_expires_at).toBe(new Date(START + 30 * 24 * 60 * MINUTE).toISOString());
    f.ctx.advance(60 * MINUTE);
    const beat = await body<Heartbeat>(await f.call('/heartbeat', { key: nodeLocked, fingerprint: 'pc' }));
    expect(beat).toMatchObject({ valid: true, code: 'VALID' });
    expect(beat.lease_expires_at).toBe(new Date(START + 60 * MINUTE + 30 * 24 * 60 * MINUTE).toISOString());
    expect((await f.call('/activate', { key: nodeLocked, fingerprint: 'other' })).status).toBe(409);
  });
});
