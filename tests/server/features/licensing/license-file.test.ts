// Signed license files: any JOSE verifier accepts them with the published keys alone; a change to the
// header, payload or signature, an unknown kid, an expired lease or another machine is refused; after a
// rotation new files use the new key and files signed before still verify.
import fs from 'node:fs';
import path from 'node:path';
import { decodeProtectedHeader, importJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { signLicenseFile, type LicenseFileInput } from '../../../../server/features/licensing/license-file.ts';
import { addSigningKey, createKeyringSource, KEYRING_RECHECK_MS, loadKeyring, signingKeysDir } from '../../../../server/signing/signing-keys.ts';
import { verifyLicenseFile } from '../../../../server/features/licensing/verify-file.ts';
import { makeTempDir } from '../../../helpers/test-context.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const config = () => {
  const dataDir = makeTempDir('site-signing-');
  dirs.push(dataDir);
  return { dataDir, licenseSigningKey: undefined };
};

const NOW = new Date('2026-06-01T12:00:00Z');
const input = (overrides: Partial<LicenseFileInput> = {}): LicenseFileInput => ({
  issuer: 'https://www.example.com',
  license: {
    id: 7,
    key: 'DCTL-AAAAA-BBBBB-CCCCC-DDDDD-EEEEE-FFFFF',
    type: 'trial',
    user_name: 'Ann',
    company_name: 'Metrology Ltd',
    email: 'ann@example.com',
    max_machines: 1,
    expire_date: '2026-07-01T00:00:00.000Z',
    entitlements: ['PRO_EXPORT'],
    maintenance_until: '2027-06-01T00:00:00.000Z',
  },
  now: NOW,
  ...overrides,
});

/** Flips one character of the part `index` (0 header, 1 payload, 2 signature) of a compact JWS. */
function tamper(token: string, index: number): string {
  const parts = token.split('.');
  const part = parts[index] as string;
  const middle = Math.floor(part.length / 2);
  parts[index] = part.slice(0, middle) + (part[middle] === 'A' ? 'B' : 'A') + part.slice(middle + 1);
  return parts.join('.');
}

describe('license files', () => {
  it('verify with the published keys alone and carry the claims the software reads', async () => {
    const keyring = loadKeyring(config());
    const token = await signLicenseFile(keyring, input());
    expect(token.split('.')).toHaveLength(3);
    const result = await verifyLicenseFile(token, { keys: keyring.published }, { now: NOW, issuer: 'https://www.example.com' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.kid).toBe(keyring.current.kid);
    expect(result.claims).toMatchObject({
      iss: 'https://www.example.com',
      sub: '7',
      iat: NOW.getTime() / 1000,
      exp: Date.parse('2026-07-01T00:00:00Z') / 1000,
    });
    expect(result.claims.license).toEqual(input().license);
  });

  it('are the JWS jose itself would sign: verified by jose alone against the published JWK, header and claims as set', async () => {
    const keyring = loadKeyring(config());
    const leaseExpiresAt = new Date('2026-06-15T12:00:00Z');
    const token = await signLicenseFile(keyring, input({ machine: { fingerprint: 'fp-1', name: 'Lab PC', leaseExpiresAt } }));
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'EdDSA', kid: keyring.current.kid, typ: 'dctl-license+jwt' });
    const key = await importJWK(keyring.published[0] as JWK, 'EdDSA');
    const { payload } = await jwtVerify(token, key, { currentDate: NOW, issuer: 'https://www.example.com', typ: 'dctl-license+jwt' });
    expect(payload).toEqual({
      license: input().license,
      machine: { fingerprint: 'fp-1', name: 'Lab PC' },
      iss: 'https://www.example.com',
      sub: '7',
      iat: NOW.getTime() / 1000,
      nbf: NOW.getTime() / 1000,
      exp: leaseExpiresAt.getTime() / 1000,
    });
    // The same claims signed by jose give the same header and payload parts (Ed25519 signatures are deterministic too).
    const byJose = await new SignJWT({ license: input().license, machine: { fingerprint: 'fp-1', name: 'Lab PC' } })
      .setProtectedHeader({ alg: 'EdDSA', kid: keyring.current.kid, typ: 'dctl-license+jwt' })
      .setIssuer('https://www.example.com')
      .setSubject('7')
      .setIssuedAt(NOW.getTime() / 1000)
      .setNotBefore(NOW.getTime() / 1000)
      .setExpirationTime(leaseExpiresAt.getTime() / 1000)
      .sign(keyring.current.privateKey);
    expect(token).toBe(byJose);
  });

  it('are refused when the header, payload or signature changed, or the kid is unknown', async () => {
    const keyring = loadKeyring(config());
    const token = await signLicenseFile(keyring, input());
    const jwks = { keys: keyring.published };
    for (const index of [1, 2])
      expect(await verifyLicenseFile(tamper(token, index), jwks, { now: NOW })).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/BAD_SIGNATURE|MALFORMED/),
      });
    expect(await verifyLicenseFile(tamper(token, 0), jwks, { now: NOW })).toMatchObject({ ok: false });
    const other = loadKeyring(config());
    expect(await verifyLicenseFile(token, { keys: other.published }, { now: NOW })).toMatchObject({ ok: false, reason: 'UNKNOWN_KID' });
    // A payload re-signed with another key but the first key's kid: the signature gives it away.
    const forged = await signLicenseFile(
      { ...other, current: { ...other.current, kid: keyring.current.kid } },
      input({ license: { ...input().license, max_machines: 99 } }),
    );
    expect(await verifyLicenseFile(forged, jwks, { now: NOW })).toMatchObject({ ok: false, reason: 'BAD_SIGNATURE' });
    expect(await verifyLicenseFile('not a file', jwks, { now: NOW })).toMatchObject({ ok: false, reason: 'MALFORMED' });
  });

  it('are refused with another typ, even signed by the same key, as the documented software check does (issue 29, item 4)', async () => {
    const keyring = loadKeyring(config());
    const jwks = { keys: keyring.published };
    const claims = { license: input().license };
    // jose compares typ as a media type, case-insensitively, like the documented software check.
    for (const typ of ['JWT', 'license+jwt', undefined]) {
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'EdDSA', kid: keyring.current.kid, ...(typ === undefined ? {} : { typ }) })
        .setIssuer('https://www.example.com')
        .setSubject('7')
        .setIssuedAt(Math.floor(NOW.getTime() / 1000))
        .sign(keyring.current.privateKey);
      expect(await verifyLicenseFile(token, jwks, { now: NOW }), String(typ)).toMatchObject({ ok: false, reason: 'WRONG_TYPE' });
    }
  });

  it('are refused when the signature carries base64 padding or whitespace around it (issue 29, item 4)', async () => {
    const keyring = loadKeyring(config());
    const jwks = { keys: keyring.published };
    const token = await signLicenseFile(keyring, input());
    expect(await verifyLicenseFile(token, jwks, { now: NOW })).toMatchObject({ ok: true });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    for (const bad of [
      `${token}=`,
      `${token}==`,
      `${header}.${payload}. ${signature}`,
      `${header}.${payload}.${signature} `,
      `${header}.${payload}.\t${signature}\n`,
      ` ${token}`,
    ]) {
      expect(await verifyLicenseFile(bad, jwks, { now: NOW }), JSON.stringify(bad)).toMatchObject({ ok: false, reason: 'MALFORMED' });
    }
  });

  it('bound to a machine, expire with the lease and name the machine', async () => {
    const keyring = loadKeyring(config());
    const leaseExpiresAt = new Date('2026-06-15T12:00:00Z');
    const token = await signLicenseFile(keyring, input({ machine: { fingerprint: 'fp-1', name: 'Lab PC', leaseExpiresAt } }));
    const jwks = { keys: keyring.published };
    const ok = await verifyLicenseFile(token, jwks, { now: NOW, fingerprint: 'fp-1' });
    expect(ok).toMatchObject({ ok: true, claims: { machine: { fingerprint: 'fp-1', name: 'Lab PC' }, exp: leaseExpiresAt.getTime() / 1000 } });
    expect(await verifyLicenseFile(token, jwks, { now: NOW, fingerprint: 'fp-2' })).toMatchObject({ ok: false, reason: 'WRONG_MACHINE' });
    expect(await verifyLicenseFile(token, jwks, { now: new Date('2026-06-16T00:00:00Z') })).toMatchObject({ ok: false, reason: 'EXPIRED' });
    expect(await verifyLicenseFile(token, jwks, { now: new Date('2026-05-01T00:00:00Z') })).toMatchObject({ ok: false, reason: 'NOT_YET_VALID' });
  });

  it('of a perpetual license carry no expiry unless bound to a machine', async () => {
    const keyring = loadKeyring(config());
    const token = await signLicenseFile(keyring, input({ license: { ...input().license, type: 'perpetual', expire_date: null } }));
    const result = await verifyLicenseFile(token, { keys: keyring.published }, { now: new Date('2099-01-01T00:00:00Z') });
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && result.claims.exp).toBeUndefined();
  });

  it('keep verifying after a rotation, while new files use the new key', async () => {
    const settings = config();
    const source = createKeyringSource(settings, undefined, { recheckMs: 0 });
    const before = source();
    const oldFile = await signLicenseFile(before, input());
    const newKid = addSigningKey(settings, new Date(Date.now() + 1000));
    const after = source();
    expect(after.current.kid).toBe(newKid);
    expect(after.published.map((key) => key.kid)).toEqual([newKid, before.current.kid]);
    const newFile = await signLicenseFile(after, input());
    for (const file of [oldFile, newFile]) expect(await verifyLicenseFile(file, { keys: after.published }, { now: NOW })).toMatchObject({ ok: true });
  });

  it('are looked for again at most once a second in a running process, so a rotation is seen within that second', () => {
    const settings = config();
    let clock = 0;
    const source = createKeyringSource(settings, undefined, { clock: () => clock });
    const before = source().current.kid;
    const newKid = addSigningKey(settings, new Date(Date.now() + 1000));
    clock = KEYRING_RECHECK_MS - 1;
    expect(source().current.kid).toBe(before);
    clock = KEYRING_RECHECK_MS;
    expect(source().current.kid).toBe(newKid);
  });

  it('keep the private keys in files only their owner can read', () => {
    const settings = config();
    loadKeyring(settings);
    const dir = signingKeysDir(settings);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    for (const name of fs.readdirSync(dir)) expect(fs.statSync(path.join(dir, name)).mode & 0o777).toBe(0o600);
  });
});
