// The heartbeat's lock-free renewal (server/features/licensing/activation.ts, heartbeat): the lease is
// renewed by one conditional UPDATE that applies only while the decision still holds. These tests move
// each thing it read between the read and the write and expect the write to refuse (the route then decides
// again under the write lock and answers what that decision says), except a lease another heartbeat moved
// later, which keeps the decision and is renewed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { licenseMachines, licenses } from '../../../../server/db/schema.ts';
import { listMachinesOfLicense, renewLeaseIfDecisionHolds, type HeartbeatReading } from '../../../../server/features/licensing/queries.ts';
import { body, createLicensingFixture, type LicensingFixture } from './licensing-fixture.ts';

let f: LicensingFixture;
let licenseId: number;
let key: string;
let reading: HeartbeatReading;

beforeEach(async () => {
  f = await createLicensingFixture();
  const license = f.license({ max_machines: 2 });
  licenseId = license.id;
  key = license.key ?? '';
  expect((await f.call('/activate', { key, fingerprint: 'pc-1', name: 'PC 1' })).status).toBe(201);
  const machine = listMachinesOfLicense(f.ctx.db, licenseId)[0]!;
  reading = { machineId: machine.id, readLease: machine.lease_expires_at, license };
});
afterEach(() => f.finish());

const LATER = '2026-03-01T00:00:00.000Z';
const laterThan = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const leaseOf = () => listMachinesOfLicense(f.ctx.db, licenseId)[0]?.lease_expires_at;
const setLicense = (fields: Partial<typeof licenses.$inferInsert>) => f.ctx.db.update(licenses).set(fields).where(eq(licenses.id, licenseId)).run();

describe('renewLeaseIfDecisionHolds', () => {
  it('renews the lease when nothing moved since the reading', () => {
    const renewed = renewLeaseIfDecisionHolds(f.ctx.db, reading, '2026-01-01T00:01:00.000Z', LATER);
    expect(renewed?.lease_expires_at).toBe(LATER);
    expect(leaseOf()).toBe(LATER);
  });

  it.each([
    ['the license was suspended', { suspended: 1 }],
    ['the license was deactivated', { active: 0 }],
    ['the limit was lowered', { max_machines: 1 }],
    ['the expiry was moved', { expire_date: '2026-01-02T00:00:00.000Z' }],
  ] as const)('refuses and writes nothing when %s', (_what, fields) => {
    const before = leaseOf();
    setLicense(fields);
    expect(renewLeaseIfDecisionHolds(f.ctx.db, reading, '2026-01-01T00:01:00.000Z', LATER)).toBeUndefined();
    expect(leaseOf()).toBe(before);
  });

  it('renews when another heartbeat of the machine moved its lease later since the reading (two serving processes)', () => {
    const other = laterThan(reading.readLease, 60_000);
    f.ctx.db.update(licenseMachines).set({ lease_expires_at: other }).where(eq(licenseMachines.id, reading.machineId)).run();
    expect(renewLeaseIfDecisionHolds(f.ctx.db, reading, '2026-01-01T00:01:00.000Z', LATER)?.lease_expires_at).toBe(LATER);
    expect(leaseOf()).toBe(LATER);
  });

  it('never moves a lease or a check-in back: the later of the two renewals stays', () => {
    const other = { lease_expires_at: '2026-04-01T00:00:00.000Z', last_check_in_at: '2026-01-01T00:02:00.000Z' };
    f.ctx.db.update(licenseMachines).set(other).where(eq(licenseMachines.id, reading.machineId)).run();
    const renewed = renewLeaseIfDecisionHolds(f.ctx.db, reading, '2026-01-01T00:01:00.000Z', LATER);
    expect(renewed).toMatchObject(other);
    expect(listMachinesOfLicense(f.ctx.db, licenseId)[0]).toMatchObject(other);
  });

  it('refuses when the lease ends earlier than it did at the reading', () => {
    const earlier = laterThan(reading.readLease, -60_000);
    f.ctx.db.update(licenseMachines).set({ lease_expires_at: earlier }).where(eq(licenseMachines.id, reading.machineId)).run();
    expect(renewLeaseIfDecisionHolds(f.ctx.db, reading, '2026-01-01T00:01:00.000Z', LATER)).toBeUndefined();
    expect(leaseOf()).toBe(earlier);
  });

  it('refuses when the machine was deactivated', () => {
    f.ctx.db.delete(licenseMachines).where(eq(licenseMachines.id, reading.machineId)).run();
    expect(renewLeaseIfDecisionHolds(f.ctx.db, reading, '2026-01-01T00:01:00.000Z', LATER)).toBeUndefined();
    expect(listMachinesOfLicense(f.ctx.db, licenseId)).toEqual([]);
  });
});

describe('POST /heartbeat', () => {
  it('answers from the state at the time of the call: a suspension committed before it is refused, a lifted one renews', async () => {
    setLicense({ suspended: 1 });
    const refused = await f.call('/heartbeat', { key, fingerprint: 'pc-1' });
    expect(await body(refused)).toMatchObject({ code: 'SUSPENDED', valid: false });
    setLicense({ suspended: 0 });
    const before = leaseOf();
    f.ctx.advance(60_000);
    const renewed = await body<{ code: string; lease_expires_at: string }>(await f.call('/heartbeat', { key, fingerprint: 'pc-1' }));
    expect(renewed.code).toBe('VALID');
    expect(renewed.lease_expires_at).not.toBe(before);
    expect(leaseOf()).toBe(renewed.lease_expires_at);
  });

  it('answers NOT_FOUND for a key no license has, without writing', async () => {
    const before = leaseOf();
    expect(await body(await f.call('/heartbeat', { key: 'DCTL-AAAAA-BBBBB-CCCCC-DDDDD-EEEEE-FFFFF', fingerprint: 'pc-1' }))).toMatchObject({
      code: 'NOT_FOUND',
      valid: false,
    });
    expect(leaseOf()).toBe(before);
  });
});
