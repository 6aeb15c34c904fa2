// Licenses as owners and admins see them (issue 12, items 1, 5, 6 and 8): every license object carries its
// key, machine limit, suspension, machines and status; nobody else ever sees a key; the admin's store and
// update take max_machines and suspended (defaults from the licensing settings), record license events,
// and mail the key on a grant; refused input changes nothing; and no key reaches a log line.
import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { licenseEvents, licenseMachines, licenses } from '../../../../server/db/schema.ts';
import { getLicensesOfUser } from '../../../../server/features/licensing/queries.ts';
import { LICENSE_KEY_PATTERN } from '../../../../server/auth/license-keys.ts';
import { presentLicenses } from '../../../../server/features/licensing/present.ts';
import { createUser, login, type LoggedInClient } from '../../../helpers/auth.ts';
import { captureConsole, expectNoLicenseKeyIn } from '../../../helpers/license-keys-in-logs.ts';
import { latestMailTo, readOutbox } from '../../../helpers/mail.ts';
import { createAdminFixture, json, type AdminFixture } from '../../admin/admin-fixture.ts';

const DAY = 24 * 60 * 60 * 1000;

interface LicenseObject {
  id: number;
  user_id: number;
  key: string | null;
  active: number;
  max_machines: number;
  suspended: number;
  expire_date: string | null;
  machines: Array<{ id: number; name: string | null; platform: string | null; fingerprint: string; activated_at: string; last_check_in_at: string }>;
  status: { code: string; text: string };
  license_type: { name: string };
}
type LicenseAnswer = { message: string; license: LicenseObject; granted: boolean; mail_sent: boolean | null };
type Events = Array<{ action: string; actor_kind: string; actor_user_id: number | null; detail: Record<string, unknown> }>;

let fixture: AdminFixture;
let logs: ReturnType<typeof captureConsole>;

beforeEach(async () => {
  logs = captureConsole();
  // Fake clock at 2026-01-01T00:00:00Z; every log line written, so the key check below sees them all.
  fixture = await createAdminFixture({ fakeClock: true, env: { LOG_LEVEL: 'debug' } });
});

afterEach(() => {
  try {
    // Issue 12, item 1: keys never appear in logs. Every key this test made, against every line it wrote.
    for (const { key } of fixture.ctx.db.select({ key: licenses.key }).from(licenses).all()) expect(key).toMatch(LICENSE_KEY_PATTERN);
    expectNoLicenseKeyIn([...fixture.ctx.logLines, ...logs.lines], fixture.ctx.db);
  } finally {
    logs.restore();
    fixture.ctx.cleanup();
  }
});

const store = (body: Record<string, unknown>) => fixture.admin.request('POST', '/api/license/store', body);
const update = (id: number, body: Record<string, unknown>) => fixture.admin.request('PUT', `/api/license/update/${id}`, body);

function eventsOf(licenseId: number): Events {
  return fixture.ctx.db
    .select()
    .from(licenseEvents)
    .where(eq(licenseEvents.license_id, licenseId))
    .orderBy(asc(licenseEvents.id))
    .all()
    .map((row) => ({
      action: row.action,
      actor_kind: row.actor_kind,
      actor_user_id: row.actor_user_id,
      detail: JSON.parse(row.detail) as Record<string, unknown>,
    }));
}

async function grantTrial(extra: Record<string, unknown> = {}): Promise<LicenseObject> {
  const response = await store({ license_type_id: fixture.typeId('trial'), user_id: fixture.user.user.id, expire: 30, ...extra });
  expect(response.status).toBe(201);
  return (await json<LicenseAnswer>(response)).license;
}

function addMachine(licenseId: number, fingerprint: string, name: string) {
  return fixture.ctx.db
    .insert(licenseMachines)
    .values({
      license_id: licenseId,
      fingerprint,
      name,
      platform: 'linux-x64',
      activated_at: '2026-01-02T00:00:00.000Z',
      last_check_in_at: '2026-01-03T00:00:00.000Z',
      lease_expires_at: '2026-02-02T00:00:00.000Z',
    })
    .returning()
    .get();
}

describe('the license object', () => {
  it('carries key, max_machines, suspended, machines and status for the owner (GET /api/user, login) and the admin (getAll, users page, writes)', async () => {
    const granted = await grantTrial();
    expect(granted).toMatchObject({ max_machines: 1, suspended: 0, machines: [], status: { code: 'VALID', text: 'Trial – expires in 30 days' } });
    expect(granted.key).toMatch(LICENSE_KEY_PATTERN);
    const machine = addMachine(granted.id, 'fp-laptop', 'Ann’s laptop');
    fixture.ctx.advance(18 * DAY + 60_000);

    const expected = {
      id: granted.id,
      key: granted.key,
      max_machines: 1,
      suspended: 0,
      machines: [
        {
          id: machine.id,
          name: 'Ann’s laptop',
          platform: 'linux-x64',
          fingerprint: 'fp-laptop',
          activated_at: '2026-01-02T00:00:00.000Z',
          last_check_in_at: '2026-01-03T00:00:00.000Z',
          lease_expires_at: '2026-02-02T00:00:00.000Z',
        },
      ],
      status: { code: 'VALID', text: 'Trial – expires in 12 days' },
      license_type: { name: 'trial' },
      // Issue 24: what the type and the license give, in every answer.
      type: 'trial',
      entitlements: [],
      maintenance_until: null,
      floating: 0,
    };
    // 18 days on, the sessions of the fixture have ended: both sign in again.
    const ann = await login(fixture.ctx.app, 'ann@example.test');
    expect(ann.licenses).toEqual([expect.objectContaining(expected)]);
    const own = await json<{ licenses: LicenseObject[] }>(await ann.request('GET', '/api/user'));
    expect(own.licenses).toEqual([expect.objectContaining(expected)]);
    // Machines carry exactly these fields; the lease's end since issue 24 (a floating seat's end time).
    expect(Object.keys(own.licenses[0]?.machines[0] ?? {}).sort()).toEqual([
      'activated_at',
      'fingerprint',
      'id',
      'last_check_in_at',
      'lease_expires_at',
      'name',
      'platform',
    ]);

    const boss = await login(fixture.ctx.app, 'boss@example.test');
    const all = await json<{ licenses: LicenseObject[] }>(await boss.request('GET', '/api/license/getAll'));
    expect(all.licenses).toEqual([expect.objectContaining(expected)]);
    const page = await json<{ licenses: LicenseObject[] }>(await boss.request('GET', '/api/admin/users'));
    expect(page.licenses).toEqual([expect.objectContaining(expected)]);
    const written = await json<LicenseAnswer>(await boss.request('PUT', `/api/license/update/${granted.id}`, { max_machines: 2 }));
    expect(written.license).toEqual(expect.objectContaining({ ...expected, max_machines: 2 }));
  });

  it('states the status in words: perpetual, not active, suspended, expired', async () => {
    const perpetual = await json<LicenseAnswer>(await store({ license_type_id: fixture.typeId('perpetual'), user_id: fixture.user.user.id, active: 1 }));
    expect(perpetual.license.status).toEqual({ code: 'VALID', text: 'Perpetual' });
    const inactive = await json<LicenseAnswer>(await update(perpetual.license.id, { active: 0 }));
    expect(inactive.license.status).toEqual({ code: 'NOT_ACTIVE', text: 'Not active' });
    const suspended = await json<LicenseAnswer>(await update(perpetual.license.id, { active: 1, suspended: 1 }));
    expect(suspended.license.status).toEqual({ code: 'SUSPENDED', text: 'Suspended' });

    const trial = await grantTrial({ expire: 2 });
    // A fresh sign-in each time: a day on the fake clock outlives the fixture's session.
    const statusOfTrial = async () =>
      ((await login(fixture.ctx.app, 'ann@example.test')).licenses as LicenseObject[]).find((license) => license.id === trial.id)?.status;
    fixture.ctx.advance(DAY + 1);
    expect(await statusOfTrial()).toEqual({ code: 'VALID', text: 'Trial – expires in 1 day' });
    fixture.ctx.advance(DAY - 1);
    expect(await statusOfTrial()).toEqual({ code: 'EXPIRED', text: 'Expired' });
  });
});

describe('keys are for the owner and the admins only', () => {
  it('another user never sees a key: not in their account, not through the admin calls', async () => {
    const annsTrial = await grantTrial();
    const annsKey = annsTrial.key ?? '';
    addMachine(annsTrial.id, 'fp-secret-machine', 'Ann’s laptop');
    await createUser(fixture.ctx, { email: 'bob@example.test', name: 'Bob' });
    const bob: LoggedInClient = await login(fixture.ctx.app, 'bob@example.test');
    expect(JSON.stringify(bob.licenses)).not.toContain(annsKey);

    const answers = await Promise.all([
      bob.request('GET', '/api/user'),
      bob.request('GET', '/api/license/getAll'),
      bob.request('GET', '/api/admin/users'),
      bob.request('PUT', `/api/license/update/${annsTrial.id}`, { max_machines: 5 }),
      bob.request('GET', `/api/user/request-license/${bob.user.id}`),
      bob.request('GET', '/api/admin/licensing-settings'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 403, 403, 403, 200, 403]);
    for (const answer of answers) {
      const text = await answer.text();
      expect(text).not.toContain(annsKey);
      expect(text).not.toContain('fp-secret-machine');
    }
    // The owner still sees it.
    expect(JSON.stringify(await json(await fixture.user.request('GET', '/api/user')))).toContain(annsKey);
  });

  it('the one builder of license objects blanks key and machines for anyone but the owner and admins', async () => {
    const annsTrial = await grantTrial();
    addMachine(annsTrial.id, 'fp-laptop', 'Ann’s laptop');
    const stored = getLicensesOfUser(fixture.ctx.db, fixture.user.user.id);
    const now = fixture.ctx.now();
    const [forStranger] = presentLicenses(fixture.ctx.db, stored, { viewer: { id: 999, role: 'user' }, now });
    expect(forStranger).toMatchObject({ id: annsTrial.id, key: null, machines: [], status: { code: 'VALID' } });
    const [forOwner] = presentLicenses(fixture.ctx.db, stored, { viewer: { id: fixture.user.user.id, role: 'user' }, now });
    const [forAdmin] = presentLicenses(fixture.ctx.db, stored, { viewer: { id: 998, role: 'admin' }, now });
    for (const view of [forOwner, forAdmin]) expect(view).toMatchObject({ key: annsTrial.key, machines: [{ fingerprint: 'fp-laptop' }] });
  });
});

describe('max_machines and suspended on store and update', () => {
  it('default per type from the license type, and take what the admin sends', async () => {
    expect((await grantTrial()).max_machines).toBe(1);
    const perpetual = await json<LicenseAnswer>(await store({ license_type_id: fixture.typeId('perpetual'), user_id: fixture.user.user.id }));
    expect(perpetual.license).toMatchObject({ max_machines: 3, suspended: 0 });

    for (const [name, max_machines] of [
      ['trial', 2],
      ['perpetual', 10],
    ] as const) {
      const saved = await fixture.admin.request('PUT', `/api/license/types/${fixture.typeId(name)}`, { max_machines });
      expect(saved.status).toBe(200);
    }
    expect((await grantTrial()).max_machines).toBe(2);
    const later = await json<LicenseAnswer>(await store({ license_type_id: fixture.typeId('perpetual'), user_id: fixture.user.user.id }));
    expect(later.license.max_machines).toBe(10);

    const explicit = await grantTrial({ max_machines: '7', suspended: 'true' });
    expect(explicit).toMatchObject({ max_machines: 7, suspended: 1, status: { code: 'SUSPENDED' } });
    // Left out of an update, both keep their values, a type change included.
    const changed = await json<LicenseAnswer>(await update(explicit.id, { license_type_id: fixture.typeId('perpetual'), active: 1 }));
    expect(changed.license).toMatchObject({ max_machines: 7, suspended: 1, license_type: { name: 'perpetual' } });
    const unsuspended = await json<LicenseAnswer>(await update(explicit.id, { suspended: false, max_machines: 1000 }));
    expect(unsuspended.license).toMatchObject({ max_machines: 1000, suspended: 0, status: { code: 'VALID', text: 'Perpetual' } });
  });

  it('answers 422 for a bad limit or flag and changes nothing: no license, no event, no mail', async () => {
    const trial = await grantTrial();
    const before = fixture.ctx.db.select().from(licenses).all();
    const eventsBefore = fixture.ctx.db.select().from(licenseEvents).all();
    const mailsBefore = readOutbox(fixture.ctx.config.outboxDir).length;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ max_machines: 0 }, 'max_machines', 'The max machines field must be at least 1.'],
      [{ max_machines: 1001 }, 'max_machines', 'The max machines field must not be greater than 1000.'],
      [{ max_machines: 2.5 }, 'max_machines', 'The max machines field must be a whole number.'],
      [{ max_machines: 'many' }, 'max_machines', 'The max machines field must be a whole number.'],
      [{ max_machines: -3 }, 'max_machines', 'The max machines field must be at least 1.'],
      [{ suspended: 'perhaps' }, 'suspended', 'The suspended field must be true or false.'],
      [{ suspended: 2 }, 'suspended', 'The suspended field must be true or false.'],
    ];
    for (const [body, field, message] of cases) {
      for (const response of [
        await store({ license_type_id: fixture.typeId('trial'), user_id: fixture.user.user.id, expire: 30, ...body }),
        await update(trial.id, { expire: 60, suspended: 1, ...body }),
      ]) {
        expect(response.status, JSON.stringify(body)).toBe(422);
        expect(await response.json()).toEqual({ message, errors: { [field]: [message] } });
      }
    }
    expect(fixture.ctx.db.select().from(licenses).all()).toEqual(before);
    expect(fixture.ctx.db.select().from(licenseEvents).all()).toEqual(eventsBefore);
    expect(readOutbox(fixture.ctx.config.outboxDir)).toHaveLength(mailsBefore);
  });
});

describe('license events', () => {
  it('records created, suspended, unsuspended, extended and updated with the admin as actor, and nothing for a save that changes nothing', async () => {
    const adminId = fixture.admin.user.id;
    const trial = await grantTrial();
    await update(trial.id, { suspended: 1 });
    await update(trial.id, { suspended: 0 });
    await update(trial.id, { expire: 60 });
    await update(trial.id, { max_machines: 4, expire: 45 });
    await update(trial.id, { max_machines: 4 });

    const events = eventsOf(trial.id);
    expect(events.map((event) => event.action)).toEqual(['created', 'suspended', 'unsuspended', 'extended', 'updated']);
    for (const event of events) expect(event).toMatchObject({ actor_kind: 'admin', actor_user_id: adminId });
    expect(events[0]?.detail).toEqual({
      type: 'trial',
      active: 1,
      expire: 30,
      activated_at: '2026-01-01T00:00:00.000Z',
      expire_date: '2026-01-31T00:00:00.000Z',
      max_machines: 1,
      suspended: 0,
      entitlements: [],
      maintenance_until: null,
    });
    expect(events[3]?.detail).toEqual({
      expire: { from: 30, to: 60 },
      expire_date: { from: '2026-01-31T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z' },
    });
    expect(events[4]?.detail).toEqual({
      changes: {
        max_machines: { from: 1, to: 4 },
        expire: { from: 60, to: 45 },
        expire_date: { from: '2026-03-02T00:00:00.000Z', to: '2026-02-15T00:00:00.000Z' },
      },
    });
    // Never the key, in any event.
    for (const row of fixture.ctx.db.select().from(licenseEvents).all()) expect(row.detail).not.toContain(trial.key ?? '');
  });
});

describe('the grant mail', () => {
  it('carries the key, the machine limit and the expiry, to the owner, on a grant only', async () => {
    const trial = await grantTrial({ max_machines: 2 });
    const mail = latestMailTo(fixture.ctx.config.outboxDir, 'ann@example.test');
    expect(mail?.subject).toBe(`${fixture.ctx.config.siteName}: Your license is active`);
    expect(mail?.subject).not.toContain(trial.key ?? '');
    expect(mail?.text).toContain(`License key: ${trial.key}`);
    expect(mail?.text).toContain('Machines: up to 2');
    expect(mail?.text).toContain('valid until 2026-01-31 00:00 UTC');
    expect(mail?.html).toContain(trial.key);

    // Switching a perpetual license to active is a grant too; saving without a grant sends nothing.
    const perpetual = await json<LicenseAnswer>(await store({ license_type_id: fixture.typeId('perpetual'), user_id: fixture.user.user.id }));
    expect(readOutbox(fixture.ctx.config.outboxDir)).toHaveLength(1);
    const activated = await json<LicenseAnswer>(await update(perpetual.license.id, { active: 1 }));
    expect(activated).toMatchObject({ granted: true, mail_sent: true });
    const second = latestMailTo(fixture.ctx.config.outboxDir, 'ann@example.test');
    expect(second?.text).toContain(`License key: ${activated.license.key}`);
    expect(second?.text).toContain('It does not expire.');
    // A new machine limit is not a grant: the owner is told what changed (issue 24, item 5), without the key.
    await update(perpetual.license.id, { max_machines: 5 });
    expect(readOutbox(fixture.ctx.config.outboxDir)).toHaveLength(3);
    const changed = latestMailTo(fixture.ctx.config.outboxDir, 'ann@example.test');
    expect(changed?.subject).toBe(`${fixture.ctx.config.siteName}: Your license has changed`);
    expect(changed?.text).toContain('Machine limit changed from 3 to 5');
    expect(changed?.text).not.toContain(activated.license.key ?? 'no key');
    // The outbox logs each mail's subject and links (so the log check of this file is not vacuous).
    expect([...fixture.ctx.logLines, ...logs.lines].some((line) => line.includes('Your license is active'))).toBe(true);
  });
});
