// The key that encrypts secrets at rest (docs/decisions/0023-two-factor-sign-in.md): authenticator secrets and
// webhook signing secrets (docs/integrations.md). Never in the database, so a leaked database or a copy of it
// alone gives away neither anyone's second factor nor the means to forge our webhooks.
// TWO_FACTOR_ENCRYPTION_KEY supplies it; otherwise it is a file in $DATA_DIR/secrets/ (directory 0700, file
// 0600), like the license signing keys, made on first use. Backups carry that folder with the database.
import fs from 'node:fs';
import path from 'node:path';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { decodeKey, type Config } from '../env.ts';

type KeyConfig = Pick<Config, 'dataDir' | 'twoFactorEncryptionKey'>;

export function twoFactorKeyFile(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'secrets', 'two-factor.key');
}

/** Reads the key file, or makes it; two processes starting at once end up with the same key. */
function keyFromFile(file: string): Buffer {
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const partial = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(partial, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    try {
      // link() fails when the file exists: whoever links first wins, and nobody ever reads half a key.
      fs.linkSync(partial, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(partial, { force: true });
    }
  }
  const key = decodeKey(fs.readFileSync(file, 'utf8').trim());
  if (!key) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}

const cache = new Map<string, Buffer>();

export function twoFactorKey(config: KeyConfig): Buffer {
  if (config.twoFactorEncryptionKey) return config.twoFactorEncryptionKey;
  const file = twoFactorKeyFile(config);
  let key = cache.get(file);
  if (!key) {
    key = keyFromFile(file);
    cache.set(file, key);
  }
  return key;
}

const VERSION = 'v1';

/**
 * AES-256-GCM with a fresh 96-bit nonce. `context` (the user id) is authenticated data: a ciphertext copied
 * onto another user's row does not decrypt.
 */
export function encryptSecret(config: KeyConfig, plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', twoFactorKey(config), iv);
  cipher.setAAD(Buffer.from(context));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** The plaintext, or throws when the value was altered, belongs elsewhere or the key is not the one it was made with. */
export function decryptSecret(config: KeyConfig, stored: string, context: string): string {
  const [version, data] = stored.split(':');
  if (version !== VERSION || !data) throw new Error('unknown two-factor secret format');
  const bytes = Buffer.from(data, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', twoFactorKey(config), bytes.subarray(0, 12));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}
