// `npm run license-keys -- rotate|list` (docs/licensing.md#signing-keys-and-rotation): the keys that sign license files,
// kept in $DATA_DIR/secrets/license-signing (server/features/licensing/signing-keys.ts).
//
//   list    every key: kid, when it was made, which one signs new files; all of them are published
//   rotate  makes a new key that signs every file from now on; the earlier public keys stay published at
//           GET /api/licensing/v1/keys, so every file issued before still verifies. A running server
//           picks the new key up at once (it re-reads the directory when it changes).
//
// Private keys are never printed. Exit status: 0 done, 1 refused (rotate while LICENSE_SIGNING_KEY is set),
// 2 usage error.
import { createPrivateKey, createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { calculateJwkThumbprint } from 'jose';
import { loadConfig, type Config } from '../server/env.ts';
import { terminalText } from '../server/ops/terminal-text.ts';
import { addSigningKey, loadKeyring, signingKeysDir } from '../server/features/licensing/signing-keys.ts';

export const USAGE = `usage: npm run license-keys -- <command>

  list     the license signing keys: kid, created, which one signs new files
  rotate   add a new signing key; new license files use it, every earlier public key
           stays published so files issued before still verify

The keys live in $DATA_DIR/secrets/license-signing; npm run backup carries them.`;

export interface KeyFileInfo {
  kid: string;
  created: string;
  file: string;
}

/** `20260601T120000000Z-<kid>.pem` → 2026-06-01T12:00:00.000Z (the name addSigningKey gives). */
function createdFromName(name: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z-/.exec(name);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, ms] = match;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`;
}

async function kidOf(pem: string): Promise<string> {
  return calculateJwkThumbprint(createPublicKey(createPrivateKey(pem)).export({ format: 'jwk' }) as Parameters<typeof calculateJwkThumbprint>[0]);
}

/** The key files in the order loadKeyring reads them: oldest first, the newest signs (unless LICENSE_SIGNING_KEY). */
export async function listKeyFiles(config: Pick<Config, 'dataDir'>): Promise<KeyFileInfo[]> {
  const dir = signingKeysDir(config);
  if (!fs.existsSync(dir)) return [];
  const names = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.pem'))
    .sort();
  const out: KeyFileInfo[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    out.push({ kid: await kidOf(fs.readFileSync(file, 'utf8')), created: createdFromName(name) ?? fs.statSync(file).mtime.toISOString(), file });
  }
  return out;
}

async function list(config: Config, out: (line: string) => void): Promise<number> {
  const files = await listKeyFiles(config);
  const dir = signingKeysDir(config);
  if (files.length === 0 && !config.licenseSigningKey) {
    out(`No license signing key in ${dir} yet.`);
    out('The server makes one at its first start; npm run license-keys -- rotate makes one now.');
    return 0;
  }
  const keyring = loadKeyring(config);
  const rows = files.map((file) => ({ kid: file.kid, created: file.created, source: path.basename(file.file) }));
  if (config.licenseSigningKey && !rows.some((row) => row.kid === keyring.current.kid)) {
    rows.push({ kid: keyring.current.kid, created: '—', source: 'LICENSE_SIGNING_KEY' });
  }
  out(`License signing keys of ${config.dataDir} (oldest first; every one is published at /api/licensing/v1/keys):`);
  const kidWidth = Math.max(3, ...rows.map((row) => row.kid.length));
  out(`  ${'KID'.padEnd(kidWidth)}  ${'CREATED'.padEnd(24)}  SIGNS`);
  for (const row of rows) {
    const signs = row.kid === keyring.current.kid ? `yes${config.licenseSigningKey ? ' (LICENSE_SIGNING_KEY)' : ''}` : 'no';
    out(`  ${row.kid.padEnd(kidWidth)}  ${row.created.padEnd(24)}  ${signs}`);
  }
  out(`${rows.length} key${rows.length === 1 ? '' : 's'} published; new license files are signed with ${keyring.current.kid}.`);
  return 0;
}

async function rotate(config: Config, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  if (config.licenseSigningKey) {
    err('license-keys: refusing to rotate while LICENSE_SIGNING_KEY is set.');
    err('The key in LICENSE_SIGNING_KEY signs every new license file, so a key added here would be published but');
    err('never sign. To rotate, replace LICENSE_SIGNING_KEY with a new Ed25519 key (or unset it and run rotate),');
    err('and first keep the old key so files it signed still verify: save its PEM as');
    err(`${path.join(signingKeysDir(config), '00000000T000000000Z-previous.pem')} (sorted first, it is published but never signs).`);
    return 1;
  }
  const before = (await listKeyFiles(config)).length;
  const kid = addSigningKey(config);
  const keyring = loadKeyring(config);
  out(`New license signing key: ${kid}`);
  if (keyring.current.kid !== kid) {
    // addSigningKey names files by time; a key dated in the future (a clock set back) would still sort last.
    err(`Warning: ${keyring.current.kid} still signs: its file in ${signingKeysDir(config)} is dated later than now.`);
    return 1;
  }
  out('New license files are signed with it from now on; a running server picks it up at once.');
  if (before > 0) {
    out(`The ${before} earlier public key${before === 1 ? '' : 's'} stay${before === 1 ? 's' : ''} published at /api/licensing/v1/keys,`);
    out('so every license file issued before still verifies.');
  }
  out(`Keys published now: ${keyring.published.length}. Back them up: npm run backup carries $DATA_DIR/secrets.`);
  return 0;
}

/**
 * Runs the command; returns the exit status. Every line but the usage text goes out through terminalText:
 * key file names, paths and the command line itself are printed as visible text, never as raw control or
 * bidi characters (issue 29, item 2).
 */
export async function main(argv: string[], rawOut = console.log, rawErr = console.error): Promise<number> {
  const out = (line: string) => rawOut(terminalText(line));
  const err = (line: string) => rawErr(terminalText(line));
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    rawOut(USAGE);
    return 0;
  }
  if ((command !== 'rotate' && command !== 'list') || rest.length > 0) {
    err(command === undefined ? 'license-keys: no command given' : `license-keys: unknown command ${[command, ...rest].join(' ')}`);
    rawErr(USAGE);
    return 2;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    err(`license-keys: ${(error as Error).message}`);
    return 2;
  }
  return command === 'rotate' ? rotate(config, out, err) : list(config, out);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(terminalText(`license-keys failed: ${error instanceof Error ? error.message : String(error)}`));
      process.exitCode = 1;
    },
  );
}
