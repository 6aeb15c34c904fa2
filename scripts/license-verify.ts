// `npm run license-verify -- <file> [--keys <jwks file or URL>] [--fingerprint <fp>] [--now <ISO time>]
// [--issuer <url>]` (docs/licensing.md#command-line-tools): checks a license file offline
// exactly as the company's software does (verifyLicenseFile, jose, the published keys alone) and prints
// its header and claims, or why it is refused. Without --keys, the keys are those the local DATA_DIR
// publishes at GET /api/licensing/v1/keys. Nothing is written: a DATA_DIR without keys is an error here,
// never a reason to make one.
//
// Exit status: 0 the file is valid, 1 it is refused, 2 the command could not run (usage, unreadable file or keys).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { decodeProtectedHeader } from 'jose';
import { loadConfig } from '../server/env.ts';
import { terminalText } from '../server/ops/terminal-text.ts';
import type { PublicJwk } from '../server/signing/signing-keys.ts';
import { loadKeyring, signingKeysDir } from '../server/signing/signing-keys.ts';
import { verifyLicenseFile, type VerifiedLicenseFile } from '../server/features/licensing/verify-file.ts';

export const USAGE = `usage: npm run license-verify -- <file|-> [options]

Checks a license file (.lic) offline and prints its claims, or why it is refused.

  <file>                the license file; - reads it from standard input
  --keys <file|URL>     a JWKS ({ "keys": [...] }) as a file or an http(s) URL such as
                        https://www.example.com/api/licensing/v1/keys
                        (default: the keys the local DATA_DIR publishes)
  --fingerprint <fp>    the file must be bound to this machine
  --now <ISO time>      check as of this time instead of now (e.g. 2026-06-01T12:00:00Z)
  --issuer <url>        the file must be issued by this site (its iss claim)
  --help                this text

Exit status: 0 valid, 1 refused, 2 usage error or unreadable file or keys.`;

/** The command could not run; exit status 2. `showUsage` for a wrong command line. */
export class UsageError extends Error {
  showUsage: boolean;
  constructor(message: string, showUsage = false) {
    super(message);
    this.showUsage = showUsage;
  }
}

export interface VerifyArgs {
  file: string;
  keys?: string;
  fingerprint?: string;
  now?: Date;
  issuer?: string;
  help: boolean;
}

export function parseVerifyArgs(argv: string[]): VerifyArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        keys: { type: 'string' },
        fingerprint: { type: 'string' },
        now: { type: 'string' },
        issuer: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message, true);
  }
  const { values, positionals } = parsed;
  if (values.help) return { file: '', help: true };
  if (positionals.length === 0) throw new UsageError('no license file given', true);
  if (positionals.length > 1) throw new UsageError(`one license file at a time (got ${positionals.length})`, true);
  let now: Date | undefined;
  if (values.now !== undefined) {
    // An ISO date or date-time; a bare date is midnight UTC.
    now = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(values.now) ? new Date(values.now) : new Date(NaN);
    if (Number.isNaN(now.getTime())) throw new UsageError(`--now must be an ISO time such as 2026-06-01T12:00:00Z (got ${values.now})`, true);
  }
  if (values.fingerprint !== undefined && values.fingerprint.trim() === '') throw new UsageError('--fingerprint is empty', true);
  return { file: positionals[0] as string, keys: values.keys, fingerprint: values.fingerprint, now, issuer: values.issuer, help: false };
}

/**
 * `npm run` starts scripts in the project's folder; a relative path is meant from where the command was
 * typed, which npm passes as INIT_CWD.
 */
function fromCallerDir(file: string): string {
  const base = process.env.npm_lifecycle_event === 'license-verify' && process.env.INIT_CWD ? process.env.INIT_CWD : process.cwd();
  return path.resolve(base, file);
}

function isPublicJwk(value: unknown): value is PublicJwk {
  if (typeof value !== 'object' || value === null) return false;
  const jwk = value as Record<string, unknown>;
  return jwk.kty === 'OKP' && jwk.crv === 'Ed25519' && typeof jwk.x === 'string' && typeof jwk.kid === 'string';
}

/** A JWKS from text; only Ed25519 public keys are kept (anything private is refused outright). */
export function parseJwks(text: string, source: string): { keys: PublicJwk[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`${source} is not JSON (a JWKS: { "keys": [ ... ] })`);
  }
  const keys = (value as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new UsageError(`${source} is not a JWKS: it has no "keys" list`);
  if (keys.some((key) => typeof key === 'object' && key !== null && 'd' in key)) {
    throw new UsageError(`${source} holds a private key: verification needs the public keys only`);
  }
  const usable = keys.filter(isPublicJwk);
  if (usable.length === 0) throw new UsageError(`${source} has no Ed25519 public key (kty OKP, crv Ed25519, x, kid)`);
  return { keys: usable };
}

async function readKeys(keys: string | undefined): Promise<{ jwks: { keys: PublicJwk[] }; source: string }> {
  if (keys && /^https?:\/\//i.test(keys)) {
    let response: Response;
    try {
      response = await fetch(keys, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      throw new UsageError(`cannot fetch ${keys}: ${(error as Error).message}`);
    }
    if (!response.ok) throw new UsageError(`cannot fetch ${keys}: HTTP ${response.status}`);
    return { jwks: parseJwks(await response.text(), keys), source: keys };
  }
  if (keys) {
    let text: string;
    try {
      text = fs.readFileSync(fromCallerDir(keys), 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read ${keys}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    return { jwks: parseJwks(text, keys), source: fromCallerDir(keys) };
  }
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const dir = signingKeysDir(config);
  const hasFiles = fs.existsSync(dir) && fs.readdirSync(dir).some((name) => name.endsWith('.pem'));
  // loadKeyring would make a first key in an empty DATA_DIR; a check must not.
  if (!hasFiles && !config.licenseSigningKey) {
    throw new UsageError(`no license signing keys in ${dir} (is DATA_DIR right?); pass --keys <jwks file or URL>`);
  }
  try {
    return { jwks: { keys: loadKeyring(config).published }, source: `the keys of ${config.dataDir}` };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/**
 * The file's last line end is not part of the token; any other whitespace is, and is refused as MALFORMED
 * (verifyLicenseFile takes the compact form strictly, issue 29 item 4).
 */
function withoutLineEnd(text: string): string {
  return text.replace(/\r?\n$/, '');
}

async function readToken(file: string): Promise<string> {
  try {
    if (file === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return withoutLineEnd(Buffer.concat(chunks).toString('utf8'));
    }
    return withoutLineEnd(fs.readFileSync(fromCallerDir(file), 'utf8'));
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

const time = (seconds: unknown) => (typeof seconds === 'number' ? `${new Date(seconds * 1000).toISOString()} (${seconds})` : 'none');
const text = (value: unknown) => (value === null || value === undefined || value === '' ? '—' : String(value));

/** The verified file in words: header, registered claims, the license and the machine. */
export function describeLicenseFile(token: string, result: VerifiedLicenseFile): string[] {
  const header = decodeProtectedHeader(token);
  const { claims } = result;
  const { license, machine } = claims;
  const lines = [
    'Header',
    `  alg          ${text(header.alg)}`,
    `  kid          ${result.kid}`,
    `  typ          ${text(header.typ)}`,
    'Claims',
    `  iss          ${text(claims.iss)}`,
    `  sub          ${text(claims.sub)}`,
    `  iat          ${time(claims.iat)}`,
    `  nbf          ${time(claims.nbf)}`,
    `  exp          ${claims.exp === undefined ? 'none (does not expire)' : time(claims.exp)}`,
    'License',
    `  id           ${text(license.id)}`,
    `  key          ${text(license.key)}`,
    `  type         ${text(license.type)}`,
    `  user_name    ${text(license.user_name)}`,
    `  company_name ${text(license.company_name)}`,
    `  email        ${text(license.email)}`,
    `  max_machines ${text(license.max_machines)}`,
    `  expire_date  ${license.expire_date ?? 'none (perpetual)'}`,
  ];
  if (machine) lines.push('Machine', `  fingerprint  ${text(machine.fingerprint)}`, `  name         ${text(machine.name)}`);
  else lines.push('Machine      none (not bound to a machine)');
  return lines;
}

/**
 * Runs the command; returns the exit status. Every line but the usage text goes out through terminalText:
 * names, machine fields and claims are whatever a customer or a file says, and a raw control or bidi
 * character would rewrite what the terminal shows (issue 29, item 2).
 */
export async function main(argv: string[], rawOut = console.log, rawErr = console.error): Promise<number> {
  const out = (line: string) => rawOut(terminalText(line));
  const err = (line: string) => rawErr(terminalText(line));
  try {
    const args = parseVerifyArgs(argv);
    if (args.help) {
      rawOut(USAGE);
      return 0;
    }
    const token = await readToken(args.file);
    const { jwks, source } = await readKeys(args.keys);
    const result = await verifyLicenseFile(token, jwks, { now: args.now, fingerprint: args.fingerprint, issuer: args.issuer });
    const checked = [
      `keys: ${source} (${jwks.keys.length})`,
      args.now ? `as of ${args.now.toISOString()}` : null,
      args.fingerprint !== undefined ? `machine ${args.fingerprint}` : null,
      args.issuer !== undefined ? `issuer ${args.issuer}` : null,
    ].filter((part) => part !== null);
    if (!result.ok) {
      let kid = 'unreadable';
      try {
        kid = decodeProtectedHeader(token).kid ?? 'missing';
      } catch {
        // A malformed file has no header to show.
      }
      out(`INVALID license file ${args.file}: ${result.reason}`);
      out(`  ${result.message}`);
      out(`  header kid: ${kid}`);
      out(`  checked with ${checked.join(', ')}`);
      return 1;
    }
    out(`VALID license file ${args.file}`);
    out(`  checked with ${checked.join(', ')}`);
    for (const line of describeLicenseFile(token, result)) out(line);
    if (result.claims.machine && args.fingerprint === undefined) {
      out('Note: bound to a machine; pass --fingerprint <fp> to check it is this one.');
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      err(`license-verify: ${error.message}`);
      rawErr(error.showUsage ? USAGE : 'npm run license-verify -- --help for usage.');
      return 2;
    }
    throw error;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(terminalText(`license-verify failed: ${error instanceof Error ? error.message : String(error)}`));
      process.exitCode = 2;
    },
  );
}
