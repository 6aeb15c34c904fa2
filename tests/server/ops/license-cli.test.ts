// The developers' license tools (docs/licensing.md#command-line-tools), run as an operator runs them:
// `node scripts/license-verify.ts` checks a file offline with a DATA_DIR's published keys or a JWKS file or
// URL and answers 0 valid, 1 refused (tampered, unknown kid, expired, not yet valid, wrong issuer or
// machine), 2 usage; `node scripts/license-keys.ts rotate|list` adds a key without unpublishing the older
// ones and refuses while LICENSE_SIGNING_KEY signs; `node scripts/backup.ts` says it carries the keys.
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { signLicenseFile, type LicenseFileInput } from '../../../server/features/licensing/license-file.ts';
import { loadKeyring, signingKeysDir, UPDATE_SIGNING, type Keyring } from '../../../server/signing/signing-keys.ts';
import { makeTempDir } from '../../helpers/test-context.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(prefix: string): string {
  const dir = makeTempDir(prefix);
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a script with a clean environment (no LICENSE_SIGNING_KEY from ours) plus `env`. */
function run(script: string, args: string[], env: Record<string, string>, input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [path.join(root, 'scripts', script), ...args],
      { cwd: root, env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }, timeout: 20_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

const verify = (dataDir: string, args: string[], input?: string) => run('license-verify.ts', args, { DATA_DIR: dataDir }, input);
const keys = (dataDir: string, args: string[], env: Record<string, string> = {}) => run('license-keys.ts', args, { DATA_DIR: dataDir, ...env });

const ISSUED = new Date('2026-06-01T12:00:00Z');
const LEASE_END = new Date('2026-06-20T00:00:00Z');
const input = (machine = true): LicenseFileInput => ({
  issuer: 'https://www.example.com',
  now: ISSUED,
  license: {
    id: 42,
    key: 'DCTL-AAAAA-BBBBB-CCCCC-DDDDD-EEEEE-FFFFF',
    type: 'trial',
    user_name: 'Ann Smith',
    company_name: 'Metrology Ltd',
    email: 'ann@example.com',
    max_machines: 1,
    expire_date: '2026-07-01T12:00:00.000Z',
    entitlements: [],
    maintenance_until: null,
  },
  ...(machine ? { machine: { fingerprint: 'fp-lab-1', name: 'Lab PC', leaseExpiresAt: LEASE_END } } : {}),
});

/** A DATA_DIR with a first key, and a machine-bound file signed by it. */
async function fixture(): Promise<{ dataDir: string; keyring: Keyring; file: string; token: string }> {
  const dataDir = tempDir('site-license-cli-');
  const keyring = loadKeyring({ dataDir, licenseSigningKey: undefined });
  const token = await signLicenseFile(keyring, input());
  const file = path.join(dataDir, 'lab.lic');
  fs.writeFileSync(file, `${token}\n`);
  return { dataDir, keyring, file, token };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const unb64 = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

function writeFile(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

describe('npm run license-verify', () => {
  it('accepts a file signed with the DATA_DIR keys and prints its header and claims', async () => {
    const { dataDir, keyring, file } = await fixture();
    const result = await verify(dataDir, [file, '--fingerprint', 'fp-lab-1', '--now', '2026-06-02T00:00:00Z', '--issuer', 'https://www.example.com']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^VALID license file/);
    for (const expected of [
      `kid          ${keyring.current.kid}`,
      'alg          EdDSA',
      'typ          dctl-license+jwt',
      'iss          https://www.example.com',
      'sub          42',
      'exp          2026-06-20T00:00:00.000Z',
      'key          DCTL-AAAAA-BBBBB-CCCCC-DDDDD-EEEEE-FFFFF',
      'type         trial',
      'company_name Metrology Ltd',
      'max_machines 1',
      'expire_date  2026-07-01T12:00:00.000Z',
      'fingerprint  fp-lab-1',
      'name         Lab PC',
    ])
      expect(result.stdout).toContain(expected);
    // Reading the file from standard input gives the same answer.
    const piped = await verify(dataDir, ['-', '--now', '2026-06-02T00:00:00Z'], fs.readFileSync(file, 'utf8'));
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain('pass --fingerprint');
  });

  it('refuses another machine, a tampered payload, header, signature or kid, and says why', async () => {
    const { dataDir, file, token } = await fixture();
    const now = ['--now', '2026-06-02T00:00:00Z'];
    const wrongMachine = await verify(dataDir, [file, '--fingerprint', 'fp-other', ...now]);
    expect(wrongMachine.code).toBe(1);
    expect(wrongMachine.stdout).toMatch(/INVALID .*: WRONG_MACHINE\n {2}bound to machine fp-lab-1, not fp-other/);
    expect(wrongMachine.stdout).not.toContain('DCTL-');

    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = unb64(payload);
    const tampered = {
      payload: `${header}.${b64({ ...claims, license: { ...(claims.license as object), max_machines: 100 } })}.${signature}`,
      header: `${b64({ ...unb64(header), typ: 'JWT' })}.${payload}.${signature}`,
      signature: `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`,
    };
    for (const [what, bad] of Object.entries(tampered)) {
      const result = await verify(dataDir, [writeFile(dataDir, `${what}.lic`, bad), ...now]);
      expect(result.code, what).toBe(1);
      expect(result.stdout, what).toMatch(/INVALID .*: BAD_SIGNATURE/);
    }
    const unknownKid = await verify(dataDir, [writeFile(dataDir, 'kid.lic', `${b64({ ...unb64(header), kid: 'not-ours' })}.${payload}.${signature}`), ...now]);
    expect(unknownKid.code).toBe(1);
    expect(unknownKid.stdout).toMatch(/UNKNOWN_KID\n.*not published \(kid not-ours\)/);
    const garbage = await verify(dataDir, [writeFile(dataDir, 'garbage.lic', 'hello'), ...now]);
    expect(garbage.code).toBe(1);
    expect(garbage.stdout).toMatch(/MALFORMED/);
  });

  it('refuses a padded or space-wrapped signature and a token of another typ signed by the same key (issue 29, item 4)', async () => {
    const { dataDir, keyring, token } = await fixture();
    const now = ['--now', '2026-06-02T00:00:00Z'];
    for (const [name, bad] of [
      ['padded.lic', `${token}==\n`],
      ['spaced.lic', `${token.replace(/\.([^.]+)$/, '. $1')}\n`],
      ['trailing.lic', `${token}  \n`],
    ] as const) {
      const result = await verify(dataDir, [writeFile(dataDir, name, bad), ...now]);
      expect(result.code, name).toBe(1);
      expect(result.stdout, name).toMatch(/INVALID .*: MALFORMED/);
    }
    const otherTyp = await new SignJWT({ license: input().license })
      .setProtectedHeader({ alg: 'EdDSA', kid: keyring.current.kid, typ: 'JWT' })
      .setIssuer('https://www.example.com')
      .setSubject('42')
      .setIssuedAt(Math.floor(ISSUED.getTime() / 1000))
      .sign(keyring.current.privateKey);
    const result = await verify(dataDir, [writeFile(dataDir, 'jwt.lic', otherTyp), ...now]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/INVALID .*: WRONG_TYPE\n {2}typ is JWT, not dctl-license\+jwt/);
  });

  it('prints control and bidi characters of names and claims as visible escapes (issue 29, item 2)', async () => {
    const { dataDir, keyring } = await fixture();
    const hostile = await signLicenseFile(keyring, {
      ...input(),
      license: { ...input().license, user_name: 'Eve\u001b]0;owned\u0007', company_name: 'Evil\r\n  type         perpetual' },
      machine: { fingerprint: 'fp\u202e1-bal', name: 'Lab\u0000\u009b2J', leaseExpiresAt: LEASE_END },
    });
    const file = writeFile(dataDir, 'hostile.lic', hostile);
    for (const args of [[file], [file, '--fingerprint', 'fp-other']]) {
      const result = await verify(dataDir, [...args, '--now', '2026-06-02T00:00:00Z']);
      // eslint-disable-next-line no-control-regex -- looking for raw control characters is the test
      expect(result.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/u);
      expect(result.stdout.split('\n')).not.toContain('  type         perpetual');
      if (args.length === 1) {
        expect(result.stdout).toContain('user_name    Eve\\x1B]0;owned\\x07');
        expect(result.stdout).toContain('company_name Evil\\x0D\\x0A  type         perpetual');
        expect(result.stdout).toContain('name         Lab\\x00\\x9B2J');
      }
      expect(result.stdout).toContain('fp\\u{202E}1-bal');
    }
  });

  it('refuses a file outside its validity or from another issuer', async () => {
    const { dataDir, file } = await fixture();
    const expired = await verify(dataDir, [file, '--now', '2026-06-21T00:00:00Z']);
    expect(expired.code).toBe(1);
    expect(expired.stdout).toMatch(/EXPIRED\n {2}expired at 2026-06-20T00:00:00.000Z/);
    const early = await verify(dataDir, [file, '--now', '2026-05-01']);
    expect(early.code).toBe(1);
    expect(early.stdout).toMatch(/NOT_YET_VALID/);
    const issuer = await verify(dataDir, [file, '--now', '2026-06-02T00:00:00Z', '--issuer', 'https://evil.example']);
    expect(issuer.code).toBe(1);
    expect(issuer.stdout).toMatch(/WRONG_ISSUER/);
  });

  it('takes the keys from a JWKS file or URL instead of the DATA_DIR', async () => {
    const { keyring, file } = await fixture();
    const elsewhere = tempDir('site-license-cli-empty-');
    const jwksFile = writeFile(elsewhere, 'keys.json', JSON.stringify({ keys: keyring.published }));
    const now = ['--now', '2026-06-02T00:00:00Z'];
    expect((await verify(elsewhere, [file, '--keys', jwksFile, ...now])).code).toBe(0);

    const server = http.createServer((request, response) => {
      if (request.url === '/api/licensing/v1/keys') {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: keyring.published }));
      } else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const fromUrl = await verify(elsewhere, [file, '--keys', `${base}/api/licensing/v1/keys`, ...now]);
    expect(fromUrl.code).toBe(0);
    expect(fromUrl.stdout).toContain(`keys: ${base}/api/licensing/v1/keys (1)`);
    const missing = await verify(elsewhere, [file, '--keys', `${base}/nope`, ...now]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/HTTP 404/);

    // Keys of another site: the kid is not among them.
    const other = loadKeyring({ dataDir: tempDir('site-license-cli-other-'), licenseSigningKey: undefined });
    const otherFile = writeFile(elsewhere, 'other.json', JSON.stringify({ keys: other.published }));
    const unknown = await verify(elsewhere, [file, '--keys', otherFile, ...now]);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toMatch(/UNKNOWN_KID/);
    // Nothing was written into the DATA_DIR that had no keys.
    expect(fs.existsSync(path.join(elsewhere, 'secrets'))).toBe(false);
  });

  it('answers 2 with a usage message for a wrong command line, an unreadable file or missing keys', async () => {
    const { dataDir, file } = await fixture();
    const none = await verify(dataDir, []);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no license file given[\s\S]*usage: npm run license-verify/);
    expect((await verify(dataDir, [file, '--bogus'])).code).toBe(2);
    expect((await verify(dataDir, [file, 'second.lic'])).code).toBe(2);
    const badNow = await verify(dataDir, [file, '--now', 'yesterday']);
    expect(badNow.code).toBe(2);
    expect(badNow.stderr).toMatch(/--now must be an ISO time/);
    const missing = await verify(dataDir, [path.join(dataDir, 'missing.lic')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*missing.lic: ENOENT/);
    const notJwks = await verify(dataDir, [file, '--keys', file]);
    expect(notJwks.code).toBe(2);
    expect(notJwks.stderr).toMatch(/is not JSON/);
    const empty = tempDir('site-license-cli-empty-');
    const noKeys = await verify(empty, [file]);
    expect(noKeys.code).toBe(2);
    expect(noKeys.stderr).toMatch(/no license signing keys in .*pass --keys/);
    expect(fs.existsSync(path.join(empty, 'secrets'))).toBe(false);
    const help = await verify(dataDir, ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--fingerprint <fp>');
  });
});

describe('npm run license-keys', () => {
  it('rotates: the new key signs, earlier keys stay published, files signed before still verify', async () => {
    const { dataDir, keyring, file } = await fixture();
    const rotated = await keys(dataDir, ['rotate']);
    expect(rotated.code).toBe(0);
    const newKid = /New license signing key: (\S+)/.exec(rotated.stdout)?.[1];
    expect(newKid).toBeDefined();
    expect(newKid).not.toBe(keyring.current.kid);
    expect(rotated.stdout).toMatch(
      /The 1 earlier public key stays published at \/api\/licensing\/v1\/keys,\nso every license file issued before still verifies/,
    );
    expect(rotated.stdout + rotated.stderr).not.toMatch(/PRIVATE KEY/);

    const after = loadKeyring({ dataDir, licenseSigningKey: undefined });
    expect(after.current.kid).toBe(newKid);
    expect(after.published.map((key) => key.kid)).toEqual([newKid, keyring.current.kid]);
    const newFile = writeFile(dataDir, 'new.lic', await signLicenseFile(after, input(false)));
    for (const each of [file, newFile]) expect((await verify(dataDir, [each, '--now', '2026-06-02T00:00:00Z'])).code).toBe(0);

    const listed = await keys(dataDir, ['list']);
    expect(listed.code).toBe(0);
    const rows = listed.stdout.split('\n').filter((line) => /^ {2}\S{43} /.test(line));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(new RegExp(`^ {2}${keyring.current.kid} +\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z +no$`));
    expect(rows[1]).toMatch(new RegExp(`^ {2}${newKid} +\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z +yes$`));
    expect(listed.stdout).toContain('2 keys published');
    expect(listed.stdout).not.toMatch(/PRIVATE KEY/);
  });

  it('lists nothing and makes nothing in a DATA_DIR without keys; rotate there makes the first', async () => {
    const dataDir = tempDir('site-license-cli-empty-');
    const listed = await keys(dataDir, ['list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/No license signing key in .* yet/);
    expect(fs.existsSync(path.join(dataDir, 'secrets'))).toBe(false);
    const first = await keys(dataDir, ['rotate']);
    expect(first.code).toBe(0);
    expect(first.stdout).not.toMatch(/earlier public key/);
    expect(fs.readdirSync(signingKeysDir({ dataDir }))).toHaveLength(1);
  });

  it('refuses to rotate while LICENSE_SIGNING_KEY signs, and lists that key as the signing one', async () => {
    const { dataDir } = await fixture();
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const before = fs.readdirSync(signingKeysDir({ dataDir }));
    const refused = await keys(dataDir, ['rotate'], { LICENSE_SIGNING_KEY: pem });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refusing to rotate while LICENSE_SIGNING_KEY is set/);
    expect(refused.stderr).toMatch(/signs every new license file/);
    expect(fs.readdirSync(signingKeysDir({ dataDir }))).toEqual(before);
    const envKid = loadKeyring({ dataDir, licenseSigningKey: pem }).current.kid;
    const listed = await keys(dataDir, ['list'], { LICENSE_SIGNING_KEY: pem });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${envKid} +— +yes \\(LICENSE_SIGNING_KEY\\)`));
    expect(listed.stdout).not.toContain('BEGIN');
  });

  it('answers 2 with the usage for no or an unknown command', async () => {
    const dataDir = tempDir('site-license-cli-empty-');
    for (const args of [[], ['rotat'], ['list', 'extra']]) {
      const result = await keys(dataDir, args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('usage: npm run license-keys -- <command>');
    }
    expect(fs.existsSync(path.join(dataDir, 'secrets'))).toBe(false);
  });
});

describe('npm run backup', () => {
  it('says that it carries the license signing keys', async () => {
    const { dataDir } = await fixture();
    const db = new Database(path.join(dataDir, 'site.db'));
    db.exec('CREATE TABLE t (x)');
    db.close();
    const target = path.join(tempDir('site-license-cli-backup-'), 'b');
    const result = await run('backup.ts', [target], { DATA_DIR: dataDir });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/secrets: 1 file\(s\) from .*secrets, with 1 license signing key \(private keys: keep this backup private\)/);
    expect(fs.readdirSync(path.join(target, 'secrets', 'license-signing'))).toHaveLength(1);
  });
});

describe('npm run update-keys (issue 25)', () => {
  const updateKeys = (dataDir: string, args: string[], env: Record<string, string> = {}) => run('update-keys.ts', args, { DATA_DIR: dataDir, ...env });

  it('rotates the update-signing keys, apart from the license keys, keeping earlier ones published', async () => {
    const { dataDir, keyring } = await fixture();
    const licenseKeysBefore = fs.readdirSync(signingKeysDir({ dataDir }));
    const first = await updateKeys(dataDir, ['rotate']);
    expect(first.code).toBe(0);
    const second = await updateKeys(dataDir, ['rotate']);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/The 1 earlier public key stays published at \/api\/updates\/v1\/keys,\nso every release file signed before still verifies/);
    const kids = [first, second].map((result) => /New update signing key: (\S+)/.exec(result.stdout)?.[1]);
    const updates = loadKeyring({ dataDir }, UPDATE_SIGNING);
    expect(updates.current.kid).toBe(kids[1]);
    expect(updates.published.map((key) => key.kid)).toEqual([kids[1], kids[0]]);
    expect(updates.published.map((key) => key.kid)).not.toContain(keyring.current.kid);
    expect(fs.readdirSync(signingKeysDir({ dataDir }))).toEqual(licenseKeysBefore);
    const listed = await updateKeys(dataDir, ['list']);
    expect(listed.stdout).toContain('Update signing keys of');
    expect(listed.stdout).toContain('2 keys published; new release files are signed with');
    expect(listed.stdout + first.stdout + second.stdout).not.toMatch(/PRIVATE KEY/);
  });

  it('refuses to rotate while UPDATE_SIGNING_KEY signs', async () => {
    const dataDir = tempDir('site-update-keys-');
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const refused = await updateKeys(dataDir, ['rotate'], { UPDATE_SIGNING_KEY: pem });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refusing to rotate while UPDATE_SIGNING_KEY is set/);
    expect((await updateKeys(dataDir, [])).stderr).toContain('usage: npm run update-keys -- <command>');
  });
});
