// The keyrings that sign (docs/licensing.md, docs/updates.md): license files, and since issue 25 the
// release files the update feeds offer (Sparkle's edSignature). One code for both, parameterised by the
// keyring's kind: Ed25519, one PKCS#8 PEM file per key in $DATA_DIR/secrets/<kind>/ (directory 0700, files
// 0600), named `<UTC time>-<kid>.pem` so the newest sorts last and signs; older keys stay to be published,
// so everything signed before a rotation still verifies. An environment variable (a PEM) may supply the
// signing key instead, for deployments that keep secrets out of the disk. Private keys are never served,
// logged or put in the database.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../env.ts';

export interface PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: PublicJwk;
}

export interface Keyring {
  /** The key new files are signed with. */
  current: SigningKey;
  /** Every public key, current first: what GET /api/licensing/v1/keys publishes. */
  published: PublicJwk[];
}

export class SigningKeyError extends Error {}

type KeyConfig = Pick<Config, 'dataDir' | 'licenseSigningKey' | 'updateSigningKey'>;

/** Which keyring: where its files live, and the environment variable that may give its signing key. */
export interface KeyringKind {
  /** The folder under $DATA_DIR/secrets. */
  dirName: string;
  envName: 'LICENSE_SIGNING_KEY' | 'UPDATE_SIGNING_KEY';
  /** In words, for errors and the keys script: "license signing". */
  label: string;
  /** Where its keys are published. */
  publishedAt: string;
  fromEnvironment: (config: Partial<KeyConfig>) => string | undefined;
}

export const LICENSE_SIGNING: KeyringKind = {
  dirName: 'license-signing',
  envName: 'LICENSE_SIGNING_KEY',
  label: 'license signing',
  publishedAt: '/api/licensing/v1/keys',
  fromEnvironment: (config) => config.licenseSigningKey,
};

/** Signs release files for the update feeds (issue 25): separate from the license key, kept and rotated the same way. */
export const UPDATE_SIGNING: KeyringKind = {
  dirName: 'update-signing',
  envName: 'UPDATE_SIGNING_KEY',
  label: 'update signing',
  publishedAt: '/api/updates/v1/keys',
  fromEnvironment: (config) => config.updateSigningKey,
};

export function signingKeysDir(config: Pick<Config, 'dataDir'>, kind: KeyringKind = LICENSE_SIGNING): string {
  return path.join(config.dataDir, 'secrets', kind.dirName);
}

/** RFC 7638 thumbprint of the public key: the same key always has the same kid, in any language. */
function publicJwkOf(privateKey: KeyObject): PublicJwk {
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' });
  if (typeof x !== 'string') throw new SigningKeyError('not an Ed25519 key');
  const kid = createHash('sha256')
    .update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x }))
    .digest('base64url');
  return { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' };
}

function toSigningKey(privateKey: KeyObject, kind: KeyringKind): SigningKey {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new SigningKeyError(`${kind.label} keys must be Ed25519`);
  const publicJwk = publicJwkOf(privateKey);
  return { kid: publicJwk.kid, privateKey, publicJwk };
}

function keyFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.pem'))
    .sort();
}

/** Makes a new key, the one new files are signed with from now on; returns its kid. */
export function addSigningKey(config: Pick<Config, 'dataDir'>, now = new Date(), kind: KeyringKind = LICENSE_SIGNING): string {
  const dir = signingKeysDir(config, kind);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const { privateKey } = generateKeyPairSync('ed25519');
  const key = toSigningKey(privateKey, kind);
  const stamp = now.toISOString().replace(/[-:.]/g, '');
  const file = path.join(dir, `${stamp}-${key.kid}.pem`);
  // Written under a temporary name and renamed, so a crash never leaves a half key that would sort last.
  const partial = `${file}.tmp`;
  fs.writeFileSync(partial, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  fs.renameSync(partial, file);
  return key.kid;
}

/** Reads every key; makes the first one when there is none and the environment does not give one. */
export function loadKeyring(config: Pick<Config, 'dataDir'> & Partial<KeyConfig>, kind: KeyringKind = LICENSE_SIGNING): Keyring {
  const dir = signingKeysDir(config, kind);
  const fromEnvironment = kind.fromEnvironment(config);
  if (!fromEnvironment && keyFiles(dir).length === 0) addSigningKey(config, new Date(), kind);
  const fromFiles = keyFiles(dir).map((name) => {
    try {
      return toSigningKey(createPrivateKey(fs.readFileSync(path.join(dir, name), 'utf8')), kind);
    } catch (error) {
      throw new SigningKeyError(`${kind.label} key ${path.join(dir, name)} cannot be read: ${(error as Error).message}`);
    }
  });
  let current = fromFiles.at(-1);
  if (fromEnvironment) {
    try {
      current = toSigningKey(createPrivateKey(fromEnvironment), kind);
    } catch (error) {
      throw new SigningKeyError(`${kind.envName} is not an Ed25519 private key in PEM: ${(error as Error).message}`);
    }
  }
  if (!current) throw new SigningKeyError(`no ${kind.label} key`);
  const published = [current.publicJwk, ...fromFiles.reverse().map((key) => key.publicJwk)].filter(
    (jwk, index, all) => all.findIndex((other) => other.kid === jwk.kid) === index,
  );
  return { current, published };
}

/** How often a running process looks at its key folder for a rotation (KeyringSourceOptions.recheckMs). */
export const KEYRING_RECHECK_MS = 1_000;

export interface KeyringSourceOptions {
  /**
   * The folder is looked at again (one stat) at most this often: every activation and heartbeat asks for
   * the keyring, and a stat per call cost a heartbeat about 3% of its time (bench: heartbeat). 0: every call.
   */
  recheckMs?: number;
  /** A monotonic clock in milliseconds (tests move it). */
  clock?: () => number;
}

/**
 * The keyring as each process sees it: read at first use and again when the key directory has changed
 * (a rotation by `npm run license-keys -- rotate` while the server runs takes effect within a second).
 */
export function createKeyringSource(
  config: Pick<Config, 'dataDir'> & Partial<KeyConfig>,
  kind: KeyringKind = LICENSE_SIGNING,
  options: KeyringSourceOptions = {},
): () => Keyring {
  const { recheckMs = KEYRING_RECHECK_MS, clock = () => performance.now() } = options;
  const dir = signingKeysDir(config, kind);
  let cached: { keyring: Keyring; stamp: string; checkedAt: number } | null = null;
  const stampOf = () => {
    try {
      const stat = fs.statSync(dir);
      return `${stat.mtimeMs}:${stat.ino}`;
    } catch {
      return 'none';
    }
  };
  return () => {
    const now = clock();
    if (cached && now - cached.checkedAt < recheckMs) return cached.keyring;
    const stamp = stampOf();
    // Stamped again after loading: the first load may make the folder and its first key.
    if (!cached || cached.stamp !== stamp) cached = { keyring: loadKeyring(config, kind), stamp: stampOf(), checkedAt: now };
    cached.checkedAt = now;
    return cached.keyring;
  };
}
