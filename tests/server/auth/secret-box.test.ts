// The key that encrypts authenticator secrets (docs/decisions/0023-two-factor-sign-in.md): a 0600 file made once
// under $DATA_DIR/secrets, or TWO_FACTOR_ENCRYPTION_KEY; AES-256-GCM bound to the user id.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/env.ts';
import { decryptSecret, encryptSecret, twoFactorKey, twoFactorKeyFile } from '../../../server/auth/secret-box.ts';
import { makeTempDir } from '../../helpers/test-context.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function config(env: Record<string, string> = {}) {
  const dataDir = makeTempDir();
  dirs.push(dataDir);
  return loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
}

describe('two-factor encryption key', () => {
  it('is made once as a 0600 file in a 0700 secrets folder and read back the same', () => {
    const cfg = config();
    const first = twoFactorKey(cfg);
    const file = twoFactorKeyFile(cfg);
    expect(file).toBe(path.join(cfg.dataDir, 'secrets', 'two-factor.key'));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(first).toHaveLength(32);
    // Another process (no cache) reads the same key.
    expect(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64').equals(first)).toBe(true);
  });

  it('TWO_FACTOR_ENCRYPTION_KEY takes its place (hex or base64), and no file is made', () => {
    const key = randomBytes(32);
    const hex = config({ TWO_FACTOR_ENCRYPTION_KEY: key.toString('hex') });
    expect(twoFactorKey(hex).equals(key)).toBe(true);
    expect(fs.existsSync(twoFactorKeyFile(hex))).toBe(false);
    expect(twoFactorKey(config({ TWO_FACTOR_ENCRYPTION_KEY: key.toString('base64') })).equals(key)).toBe(true);
  });

  it('a key of the wrong size stops the start, naming the variable', () => {
    expect(() => config({ TWO_FACTOR_ENCRYPTION_KEY: 'abcd' })).toThrow(ConfigError);
    expect(() => config({ TWO_FACTOR_ENCRYPTION_KEY: 'abcd' })).toThrow(/TWO_FACTOR_ENCRYPTION_KEY/);
  });

  it('encrypts with a fresh nonce, decrypts only for the same user and the same key', () => {
    const cfg = config();
    const a = encryptSecret(cfg, 'JBSWY3DPEHPK3PXP', '7');
    const b = encryptSecret(cfg, 'JBSWY3DPEHPK3PXP', '7');
    expect(a).not.toBe(b);
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(decryptSecret(cfg, a, '7')).toBe('JBSWY3DPEHPK3PXP');
    expect(() => decryptSecret(cfg, a, '8')).toThrow();
    expect(() => decryptSecret(config(), a, '7')).toThrow();
  });
});
