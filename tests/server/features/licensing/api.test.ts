// The licensing API as the company's software uses it (issue 12, item 4; docs/licensing.md): the
// published keys, activate / validate / deactivate with every code and status, the file an activation
// returns verifying with the published JWKS alone, lease renewal on a repeated activation, malformed
// bodies, unknown keys answered alike, and no license key in any log line.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { licenseMachines, licenses } from '../../../../server/db/schema.ts';
import { DAY_MS } from '../../../../server/features/licensing/license-dates.ts';
import { generateLicenseKey } from '../../../../server/auth/license-keys.ts';
import { addSigningKey } from '../../../../server/signing/signing-keys.ts';
import { listLicenseEvents } from '../../../../server/features/licensing/queries.ts';
import { verifyLicenseFile } from '../../../../server/features/licensing/verify-file.ts';
import { API, body, createLicensingFixture, START, type LicensingFixture } from './licensing-fixture.ts';

type Answer = { code: string; message: string; [field: string]: unknown };
type Activation = Answer & {
  machine: {
    id: number;
    fingerprint: string;
    name: string | null;
    platform: string | null;
    lease_expires_at: string;
    last_check_in_at: string;
    activated_at: string;
  };
  license_file: string;
};
type Validation = Answer & {
  valid: boolean;
  license: null | { id: number; type: string; max_machines: number; expire_date: string | null; active_machines: number };
};

let f: LicensingFixture;
beforeEach(async () => {
  f = await createLicensingFixture();
});
afterEach(() => f.finish());

const machinesOf = (licenseId: number) => f.ctx.db.select().from(licenseMachines).where(eq(licenseMachines.license_id, licenseId)).all();

describe('GET /api/licensing/v1/keys', () => {
  it('publishes the Ed25519 public keys as a cacheable JWKS, never a private part', async () => {
    const response = await f.ctx.app.request(`${API}/keys`);
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=300');
    const jwks = await body<{ keys: Record<string, unknown>[] }>(response);
    expect(jwks.keys).toHaveLength(1);
    expect(Object.keys(jwks.keys[0] ?? {}).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: f.ctx.keyring().current.kid });
  });
});

describe('key rotation (npm run license-keys -- rotate) while the server runs', () => {
  it('publishes the new key beside the old one at once; new files use it, files issued before still verify', async () => {
    const license = f.license();
    const before = await body<Activation>(await f.call('/activate', { key: license.key, fingerprint: 'fp-1' }));
    const oldKid = f.ctx.keyring().current.kid;
    const newKid = addSigningKey(f.ctx.config);
    const jwks = await f.jwks();
    expect(jwks.keys.map((key) => key.kid)).toEqual([newKid, oldKid]);
    const after = await body<Activation>(await f.call('/activate', { key: license.key, fingerprint: 'fp-1' }));
    const now = new Date(START);
    expect(await verifyLicenseFile(after.license_file, jwks, { now })).toMatchObject({ ok: true, kid: newKid });
    expect(await verifyLicenseFile(before.license_file, jwks, { now })).toMatchObject({ ok: true, kid: oldKid });
  });
});

describe('POST /api/licensing/v1/activate', () => {
  it('activates a machine (201) with a file that verifies with the published keys alone, bound to the machine', async () => {
    const license = f.license();
    const response = await f.call('/activate', { key: license.key, fingerprint: 'fp-1', name: 'Lab PC', platform: 'windows-x64' });
    expect(response.status).toBe(201);
    const answer = await body<Activation>(response);
    expect(answer).toMatchObject({ code: 'ACTIVATED', machine: { fingerprint: 'fp-1', name: 'Lab PC', platform: 'windows-x64' } });
    expect(answer.machine.lease_expires_at).toBe(new Date(START + 30 * DAY_MS).toISOString());

    const verified = await verifyLicenseFile(answer.license_file, await f.jwks(), {
      now: new Date(START),
      fingerprint: 'fp-1',
      issuer: 'http://localhost:4321',
    });
    expect(verified.ok).toBe(true);
    if (!verified.ok) return;
    expect(verified.claims.sub).toBe(String(license.id));
    expect(verified.claims.license).toMatchObject({
      id: license.id,
      key: license.key,
      type: 'trial',
      user_name: 'Ann',
      email: 'ann@example.test',
      max_machines: 3,
      expire_date: license.expire_date,
    });
    expect(verified.claims.machine).toEqual({ fingerprint: 'fp-1', name: 'Lab PC' });
    // The lease and the trial end together here: the file expires with the earlier of the two.
    expect(verified.claims.exp).toBe(Math.floor(Date.parse(answer.machine.lease_expires_at) / 1000));
    expect((await verifyLicenseFile(answer.license_file, await f.jwks(), { now: new Date(START), fingerprint: 'another' })).ok).toBe(false);

    expect(machinesOf(license.id)).toHaveLength(1);
    expect(listLicenseEvents(f.ctx.db, license.id)).toMatchObject([
      { action: 'machine_activated', actor_kind: 'software', actor_name: null, detail: { fingerprint: 'fp-1' } },
    ]);
  });

  it('answers the same fingerprint again with 200 and a fresh file: a check-in that renews the lease', async () => {
    const license = f.license({ expire: 0, expire_date: null, license_type_id: f.typeId('perpetual') });
    const first = await body<Activation>(await f.call('/activate', { key: license.key, fingerprint: 'fp-1', name: 'Old name' }));
    f.ctx.advance(10 * DAY_MS);
    const again = await f.call('/activate', { key: license.key, fingerprint: 'fp-1', name: 'New name' });
    expect(again.status).toBe(200);
    const second = await body<Activation>(again);
    expect(second.code).toBe('ACTIVATED');
    expect(second.machine.id).toBe(first.machine.id);
    expect(second.machine.activated_at).toBe(first.machine.activated_at);
    expect(second.machine.last_check_in_at).toBe(new Date(START + 10 * DAY_MS).toISOString());
    expect(second.machine.lease_expires_at).toBe(new Date(START + 40 * DAY_MS).toISOString());
    expect(second.machine.name).toBe('New name');
    expect(second.license_file).not.toBe(first.license_file);

    // Day 35: the first file's lease is over, the renewed one still holds (a perpetual file expires with its lease).
    const day35 = new Date(START + 35 * DAY_MS);
    expect(await verifyLicenseFile(first.license_file, await f.jwks(), { now: day35 })).toMatchObject({ ok: false, reason: 'EXPIRED' });
    expect(await verifyLicenseFile(second.license_file, await f.jwks(), { now: day35, fingerprint: 'fp-1' })).toMatchObject({ ok: true });
    expect(machinesOf(license.id)).toHaveLength(1);
    // A check-in changes no seat: only the activation is an event.
    expect(listLicenseEvents(f.ctx.db, license.id).map((event) => event.action)).toEqual(['machine_activated']);
  });

  it('refuses with NOT_FOUND (404), NOT_ACTIVE, EXPIRED, SUSPENDED (403) and TOO_MANY_MACHINES (409)', async () => {
    const refusal = async (key: string | null, status: number, code: string) => {
      const response = await f.call('/activate', { key, fingerprint: `fp-${code}` });
      expect(response.status, code).toBe(status);
      expect(await body(response)).toMatchObject({ code, message: expect.any(String) });
    };
    await refusal(generateLicenseKey(), 404, 'NOT_FOUND');
    await refusal(f.license({ active: 0, activated_at: null, expire_date: null }).key, 403, 'NOT_ACTIVE');
    await refusal(f.license({ suspended: 1 }).key, 403, 'SUSPENDED');
    const full = f.license({ max_machines: 1 });
    expect((await f.call('/activate', { key: full.key, fingerprint: 'first' })).status).toBe(201);
    await refusal(full.key, 409, 'TOO_MANY_MACHINES');
    expect(machinesOf(full.id)).toHaveLength(1);
    const expiring = f.license();
    f.ctx.advance(30 * DAY_MS);
    await refusal(expiring.key, 403, 'EXPIRED');
  });

  it('accepts a key typed in lower case, with spaces and the letters O, I and L for 0 and 1', async () => {
    const license = f.license({ key: 'DCTL-00000-11111-22222-33333-44444-55555' });
    const typed = '  dctl-OOOOO-ILILi-22222-33333-44444-55555 ';
    expect((await f.call('/activate', { key: typed, fingerprint: 'fp' })).status).toBe(201);
    expect(machinesOf(license.id)).toHaveLength(1);
  });
});

describe('POST /api/licensing/v1/validate', () => {
  const validate = async (key: string | null, fingerprint?: string) => {
    const response = await f.call('/validate', fingerprint === undefined ? { key } : { key, fingerprint });
    expect(response.status).toBe(200);
    return body<Validation>(response);
  };

  it('answers VALID with the license, and for a machine whether it is activated (NO_MACHINE)', async () => {
    const license = f.license();
    expect(await validate(license.key)).toMatchObject({
      valid: true,
      code: 'VALID',
      license: { id: license.id, type: 'trial', max_machines: 3, active_machines: 0 },
    });
    expect(await validate(license.key, 'fp-1')).toMatchObject({ valid: false, code: 'NO_MACHINE' });
    await f.call('/activate', { key: license.key, fingerprint: 'fp-1' });
    expect(await validate(license.key, 'fp-1')).toMatchObject({ valid: true, code: 'VALID', license: { active_machines: 1 } });
  });

  it('answers NOT_FOUND, NOT_ACTIVE, SUSPENDED and EXPIRED with valid false, always 200', async () => {
    expect(await validate(generateLicenseKey())).toEqual({ valid: false, code: 'NOT_FOUND', message: expect.any(String), license: null });
    expect(await validate(f.license({ active: 0, activated_at: null, expire_date: null }).key)).toMatchObject({ valid: false, code: 'NOT_ACTIVE' });
    // Suspension wins over the dates.
    expect(await validate(f.license({ suspended: 1, expire_date: new Date(START - DAY_MS).toISOString() }).key, 'fp')).toMatchObject({
      valid: false,
      code: 'SUSPENDED',
    });
    const trial = f.license();
    f.ctx.advance(30 * DAY_MS);
    expect(await validate(trial.key)).toMatchObject({ valid: false, code: 'EXPIRED' });
  });

  it('answers TOO_MANY_MACHINES to the machines past a limit an admin lowered; the first activated keep their seats', async () => {
    const license = f.license();
    for (const fingerprint of ['a', 'b', 'c']) {
      expect((await f.call('/activate', { key: license.key, fingerprint })).status).toBe(201);
      f.ctx.advance(1000);
    }
    f.ctx.db.update(licenses).set({ max_machines: 2 }).where(eq(licenses.id, license.id)).run();
    expect(await validate(license.key, 'a')).toMatchObject({ valid: true, code: 'VALID' });
    expect(await validate(license.key, 'b')).toMatchObject({ valid: true, code: 'VALID' });
    expect(await validate(license.key, 'c')).toMatchObject({ valid: false, code: 'TOO_MANY_MACHINES' });
    // Its check-in is refused too, until a seat frees.
    expect((await f.call('/activate', { key: license.key, fingerprint: 'c' })).status).toBe(409);
    expect((await f.call('/deactivate', { key: license.key, fingerprint: 'a' })).status).toBe(204);
    expect(await validate(license.key, 'c')).toMatchObject({ valid: true, code: 'VALID' });
  });
});

describe('POST /api/licensing/v1/deactivate', () => {
  it('frees the seat (204) for another machine, and records who did it', async () => {
    const license = f.license({ max_machines: 1 });
    await f.call('/activate', { key: license.key, fingerprint: 'old' });
    expect((await f.call('/activate', { key: license.key, fingerprint: 'new' })).status).toBe(409);
    const response = await f.call('/deactivate', { key: license.key, fingerprint: 'old' });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect((await f.call('/activate', { key: license.key, fingerprint: 'new' })).status).toBe(201);
    expect(listLicenseEvents(f.ctx.db, license.id).map((event) => [event.action, event.actor_kind, event.detail.fingerprint])).toEqual([
      ['machine_activated', 'software', 'new'],
      ['machine_deactivated', 'software', 'old'],
      ['machine_activated', 'software', 'old'],
    ]);
  });

  it('answers NO_MACHINE (404) for a machine the license is not activated on, NOT_FOUND (404) for an unknown key', async () => {
    const license = f.license();
    const noMachine = await f.call('/deactivate', { key: license.key, fingerprint: 'never' });
    expect(noMachine.status).toBe(404);
    expect(await body(noMachine)).toMatchObject({ code: 'NO_MACHINE' });
    const unknown = await f.call('/deactivate', { key: generateLicenseKey(), fingerprint: 'x' });
    expect(unknown.status).toBe(404);
    expect(await body(unknown)).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('malformed requests', () => {
  it('answers 400 to a body that is not JSON and 422 with field errors to missing or wrong fields', async () => {
    const notJson = await f.call('/activate', '{"key": ');
    expect(notJson.status).toBe(400);
    expect(await body(notJson)).toMatchObject({ code: 'INVALID_REQUEST', message: expect.any(String) });

    const missing = await f.call('/activate', {});
    expect(missing.status).toBe(422);
    expect(await body(missing)).toEqual({
      code: 'INVALID_REQUEST',
      message: 'The key field is required.',
      errors: { key: ['The key field is required.'], fingerprint: ['The fingerprint field is required.'] },
    });
    const wrongType = await f.call('/validate', { key: 42 });
    expect(wrongType.status).toBe(422);
    expect(await body(wrongType)).toMatchObject({ errors: { key: ['The key field is required.'] } });
    const blankFingerprint = await f.call('/deactivate', { key: generateLicenseKey(), fingerprint: '   ' });
    expect(blankFingerprint.status).toBe(422);
  });

  it('refuses control and bidi characters in name, platform and fingerprint with 422 naming the field (issue 29, item 2)', async () => {
    const license = f.license();
    const hostile = [
      'a\u0000b',
      'bell\u0007',
      'Lab PC\r\n  type perpetual',
      'x\u001b]0;title\u0007',
      'c1\u009b31m',
      'a\u2028b',
      'cp\u202eexe',
      'iso\u2066late',
      'lrm\u200e',
      'alm\u061c',
    ];
    for (const bad of hostile) {
      for (const [field, request] of [
        ['name', { key: license.key, fingerprint: 'fp', name: bad }],
        ['platform', { key: license.key, fingerprint: 'fp', platform: bad }],
        ['fingerprint', { key: license.key, fingerprint: bad }],
      ] as const) {
        const response = await f.call('/activate', request);
        expect(response.status, `${field} ${JSON.stringify(bad)}`).toBe(422);
        expect((await body<{ errors: Record<string, string[]> }>(response)).errors[field]).toEqual([
          `The ${field} field must be one line, without line breaks or control characters.`,
        ]);
      }
      for (const path of ['/validate', '/deactivate']) expect((await f.call(path, { key: license.key, fingerprint: bad })).status, path).toBe(422);
    }
    expect((await f.call('/validate', { key: license.key }).then((r) => body<{ license: { active_machines: number } }>(r))).license.active_machines).toBe(0);
    // Any script passes: only controls are refused.
    expect((await f.call('/activate', { key: license.key, fingerprint: 'fp-ü', name: 'Ноутбук 研究室', platform: 'linux-x64' })).status).toBe(201);
  });

  it('refuses a body far larger than any request with 413 before parsing it, with or without a Content-Length', async () => {
    const large = JSON.stringify({ key: generateLicenseKey(), fingerprint: 'x'.repeat(20_000) });
    // Without the header the body is counted as it streams in; with it, the header decides.
    for (const headers of [{}, { 'Content-Length': String(Buffer.byteLength(large)) }] as Record<string, string>[]) {
      const response = await f.call('/activate', large, headers);
      expect(response.status).toBe(413);
      expect(await body(response)).toMatchObject({ code: 'TOO_LARGE' });
    }
    const small = JSON.stringify({ key: f.license().key, fingerprint: 'fp' });
    expect((await f.call('/activate', small, { 'Content-Length': String(Buffer.byteLength(small)) })).status).toBe(201);
  });
});

describe('unknown keys', () => {
  it('answer exactly alike, whether well-formed, not a key at all, or the key of a deleted license', async () => {
    const deleted = f.license();
    f.ctx.db.delete(licenses).where(eq(licenses.id, deleted.id)).run();
    const keys = [generateLicenseKey(), 'DCTL-XXXXX', 'hello', '', 'x'.repeat(200), deleted.key];
    for (const path of ['/activate', '/validate', '/deactivate']) {
      const answers = await Promise.all(
        keys.map(async (key) => {
          const response = await f.call(path, { key, fingerprint: 'fp' });
          return { status: response.status, body: await response.text(), type: response.headers.get('Content-Type') };
        }),
      );
      expect(new Set(answers.map((answer) => JSON.stringify(answer))).size, path).toBe(1);
      expect(answers[0]?.body).toContain('NOT_FOUND');
    }
  });
});

describe('browser protections', () => {
  it('do not apply: a request with a foreign Origin and neither cookie nor XSRF header is answered', async () => {
    const license = f.license();
    const response = await f.call('/activate', { key: license.key, fingerprint: 'fp' }, { Origin: 'https://elsewhere.example' });
    expect(response.status).toBe(201);
  });
});
