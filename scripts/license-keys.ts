// `npm run license-keys -- rotate|list` (docs/licensing.md#signing-keys-and-rotation): the keys that sign license files,
// kept in $DATA_DIR/secrets/license-signing (server/signing/signing-keys.ts). The same commands for the
// update-signing keys (docs/updates.md#signing-keys): `npm run update-keys -- rotate|list` (scripts/update-keys.ts),
// this code with the other keyring kind.
//
//   list    every key: kid, when it was made, which one signs new files; all of them are published
//   rotate  makes a new key that signs every file from now on; the earlier public keys stay published at
//           GET /api/licensing/v1/keys, so every file issued before still verifies. A running server
//           picks the new key up within a second (it looks at the directory once a second).
//
// Private keys are never printed. Exit status: 0 done, 1 refused (rotate while LICENSE_SIGNING_KEY is set),
// 2 usage error.
import { createPrivateKey, createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { calculateJwkThumbprint } from 'jose';
import { loadConfig, type Config } from '../server/env.ts';
import { terminalText } from '../server/ops/terminal-text.ts';
import { addSigningKey, LICENSE_SIGNING, loadKeyring, signingKeysDir, type KeyringKind } from '../server/signing/signing-keys.ts';

export function usage(kind: KeyringKind = LICENSE_SIGNING): string {
  const script = kind === LICENSE_SIGNING ? 'license-keys' : 'update-keys';
  const what = kind === LICENSE_SIGNING ? 'license files' : 'release files (the update feeds)';
  return `usage: npm run ${script} -- <command>

  list     the ${kind.label} keys: kid, created, which one signs new ${what}
  rotate   add a new signing key; new ${what} use it, every earlier public key
           stays published so what was signed before still verifies

The keys live in $DATA_DIR/secrets/${kind.dirName}; npm run backup carries them.`;
}

export const USAGE = usage();

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
export async function listKeyFiles(config: Pick<Config, 'dataDir'>, kind: KeyringKind = LICENSE_SIGNING): Promise<KeyFileInfo[]> {
  const dir = signingKeysDir(config, kind);
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

async function list(config: Config, out: (line: string) => void, kind: KeyringKind): Promise<number> {
  const files = await listKeyFiles(config, kind);
  const dir = signingKeysDir(config, kind);
  const fromEnvironment = kind.fromEnvironment(config);
  if (files.length === 0 && !fromEnvironment) {
    out(`No ${kind.label} key in ${dir} yet.`);
    out(`The server makes one at its first start; npm run ${kind === LICENSE_SIGNING ? 'license-keys' : 'update-keys'} -- rotate makes one now.`);
    return 0;
  }
  const keyring = loadKeyring(config, kind);
  const rows = files.map((file) => ({ kid: file.kid, created: file.created, source: path.basename(file.file) }));
  if (fromEnvironment && !rows.some((row) => row.kid === keyring.current.kid)) {
    rows.push({ kid: keyring.current.kid, created: '—', source: kind.envName });
  }
  const label = kind.label.charAt(0).toUpperCase() + kind.label.slice(1);
  out(`${label} keys of ${config.dataDir} (oldest first; every one is published at ${kind.publishedAt}):`);
  const kidWidth = Math.max(3, ...rows.map((row) => row.kid.length));
  out(`  ${'KID'.padEnd(kidWidth)}  ${'CREATED'.padEnd(24)}  SIGNS`);
  for (const row of rows) {
    const signs = row.kid === keyring.current.kid ? `yes${fromEnvironment ? ` (${kind.envName})` : ''}` : 'no';
    out(`  ${row.kid.padEnd(kidWidth)}  ${row.created.padEnd(24)}  ${signs}`);
  }
  out(
    `${rows.length} key${rows.length === 1 ? '' : 's'} published; new ${kind === LICENSE_SIGNING ? 'license' : 'release'} files are signed with ${keyring.current.kid}.`,
  );
  return 0;
}

async function rotate(config: Config, out: (line: string) => void, err: (line: string) => void, kind: KeyringKind): Promise<number> {
  const script = kind === LICENSE_SIGNING ? 'license-keys' : 'update-keys';
  const file = kind === LICENSE_SIGNING ? 'license file' : 'release file';
  const files = `${file}s`;
  if (kind.fromEnvironment(config)) {
    err(`${script}: refusing to rotate while ${kind.envName} is set.`);
    err(`The key in ${kind.envName} signs every new ${file}, so a key added here would be published but`);
    err(`never sign. To rotate, replace ${kind.envName} with a new Ed25519 key (or unset it and run rotate),`);
    err('and first keep the old key so what it signed still verifies: save its PEM as');
    err(`${path.join(signingKeysDir(config, kind), '00000000T000000000Z-previous.pem')} (sorted first, it is published but never signs).`);
    return 1;
  }
  const before = (await listKeyFiles(config, kind)).length;
  const kid = addSigningKey(config, new Date(), kind);
  const keyring = loadKeyring(config, kind);
  out(`New ${kind.label} key: ${kid}`);
  if (keyring.current.kid !== kid) {
    // addSigningKey names files by time; a key dated in the future (a clock set back) would still sort last.
    err(`Warning: ${keyring.current.kid} still signs: its file in ${signingKeysDir(config, kind)} is dated later than now.`);
    return 1;
  }
  out(`New ${files} are signed with it from now on; a running server picks it up within a second.`);
  if (before > 0) {
    out(`The ${before} earlier public key${before === 1 ? '' : 's'} stay${before === 1 ? 's' : ''} published at ${kind.publishedAt},`);
    out(`so every ${file} ${kind === LICENSE_SIGNING ? 'issued' : 'signed'} before still verifies.`);
  }
  out(`Keys published now: ${keyring.published.length}. Back them up: npm run backup carries $DATA_DIR/secrets.`);
  return 0;
}

/**
 * Runs the command; returns the exit status. Every line but the usage text goes out through terminalText:
 * key file names, paths and the command line itself are printed as visible text, never as raw control or
 * bidi characters (issue 29, item 2).
 */
export async function main(argv: string[], rawOut = console.log, rawErr = console.error, kind: KeyringKind = LICENSE_SIGNING): Promise<number> {
  const script = kind === LICENSE_SIGNING ? 'license-keys' : 'update-keys';
  const out = (line: string) => rawOut(terminalText(line));
  const err = (line: string) => rawErr(terminalText(line));
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    rawOut(usage(kind));
    return 0;
  }
  if ((command !== 'rotate' && command !== 'list') || rest.length > 0) {
    err(command === undefined ? `${script}: no command given` : `${script}: unknown command ${[command, ...rest].join(' ')}`);
    rawErr(usage(kind));
    return 2;
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    err(`${script}: ${(error as Error).message}`);
    return 2;
  }
  return command === 'rotate' ? rotate(config, out, err, kind) : list(config, out, kind);
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
