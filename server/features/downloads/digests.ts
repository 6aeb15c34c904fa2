// The digests a release file needs beyond its SHA-256 (issue 25; docs/decisions/0048-releases-and-update-feeds.md):
// the SHA-512 electron-updater checks, and Sparkle's edSignature, the Ed25519 signature of the file's exact
// bytes by the update-signing key. An upload computes its SHA-512 on the way in (receive-upload.ts); files
// stored before issue 25 get theirs here, streamed. Ed25519 signs the whole message (no streaming form), so
// the signature needs the file in memory once: that happens in a short-lived child process, in the
// background after the upload is committed, so a serving process never holds a release in memory (its
// memory stays flat whatever the file's size; the child's peak is the file's size, measured in the bench).
// Until a file has its digests the feeds leave it out: they never offer a missing or wrong hash.
import { spawn } from 'node:child_process';
import { createHash, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import type { AppContext } from '../../context.ts';
import type { ReleaseFile } from '../../db/schema.ts';
import { releaseFilePath } from '../../storage/release-files.ts';
import { listFilesWithoutDigests, storeFileDigests } from './queries.ts';

const BATCH = 20;

async function sha512OfFile(file: string): Promise<string> {
  const hash = createHash('sha512');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The child's program: reads `{ file, key }` (the key as PKCS#8 PEM) from stdin, the whole file into one
 * buffer (read in chunks: fs.readFile stops at 2 GiB, a release may be larger), and writes the base64
 * signature to stdout. The key travels through the pipe only, never on a command line or in the environment.
 */
const SIGN_PROGRAM = `
import { createPrivateKey, sign } from 'node:crypto';
import fs from 'node:fs';
let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk;
const { file, key } = JSON.parse(input);
const handle = fs.openSync(file, 'r');
const size = fs.fstatSync(handle).size;
const bytes = Buffer.allocUnsafe(size);
let offset = 0;
while (offset < size) {
  const read = fs.readSync(handle, bytes, offset, Math.min(size - offset, 16 * 1024 * 1024), offset);
  if (read === 0) throw new Error('the file ended after ' + offset + ' of ' + size + ' bytes');
  offset += read;
}
fs.closeSync(handle);
process.stdout.write(sign(null, bytes, createPrivateKey(key)).toString('base64'));
`;

/** The base64 Ed25519 signature of a file's bytes, made in a child process (see above). */
export function signFileInChild(file: string, privateKey: KeyObject): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', SIGN_PROGRAM], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 && /^[A-Za-z0-9+/]{86}==$/.test(out)) resolve(out);
      else reject(new Error(`signing ${file} failed (exit ${code}): ${err.trim().split('\n').at(-1) ?? ''}`));
    });
    child.stdin.end(JSON.stringify({ file, key: privateKey.export({ format: 'pem', type: 'pkcs8' }) }));
  });
}

async function digestFile(ctx: Pick<AppContext, 'db' | 'config' | 'updateKeyring'>, file: ReleaseFile): Promise<void> {
  const onDisk = releaseFilePath(ctx.config, file.stored_name);
  const sha512 = file.sha512 ?? (await sha512OfFile(onDisk));
  const key = ctx.updateKeyring().current;
  const signature = await signFileInChild(onDisk, key.privateKey);
  storeFileDigests(ctx.db, file.id, file.stored_name, { sha512, ed_signature: signature, ed_signature_kid: key.kid });
}

/**
 * Gives every file without them its SHA-512 and signature, one file at a time; returns how many it did. A file
 * that cannot be read is logged and skipped (tried again at the next run); `shouldStop` ends the work early.
 */
export async function fillFileDigests(
  ctx: Pick<AppContext, 'db' | 'config' | 'log' | 'updateKeyring'>,
  shouldStop: () => boolean = () => false,
): Promise<number> {
  let done = 0;
  const failed = new Set<number>();
  for (;;) {
    const batch = listFilesWithoutDigests(ctx.db, BATCH + failed.size).filter((file) => !failed.has(file.id));
    if (batch.length === 0) return done;
    for (const file of batch) {
      if (shouldStop()) return done;
      try {
        await digestFile(ctx, file);
        done++;
      } catch (error) {
        failed.add(file.id);
        ctx.log.error(`release ${file.download_item_id}, file ${file.id}: its digests could not be made`, error);
      }
    }
  }
}

const running = new WeakMap<object, Promise<number>>();

/** Starts filling digests in this process right after an upload (the primary's job catches anything missed). */
export function signFilesSoon(ctx: Pick<AppContext, 'db' | 'config' | 'log' | 'updateKeyring'>): Promise<number> {
  const previous = running.get(ctx) ?? Promise.resolve(0);
  const next = previous
    .then(() => fillFileDigests(ctx))
    .catch((error: unknown) => {
      ctx.log.error('release file digests failed', error);
      return 0;
    });
  running.set(ctx, next);
  return next;
}
