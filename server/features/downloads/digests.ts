// The digests a release file needs beyond its SHA-256 (issue 25; docs/decisions/0048-releases-and-update-feeds.md):
// the SHA-512 electron-updater checks, and Sparkle's edSignature, the Ed25519 signature of the file's exact
// bytes by the update-signing key. An upload computes its SHA-512 on the way in (receive-upload.ts); files
// stored before issue 25 get theirs here, streamed. Ed25519 signs the whole message (no streaming form), so
// the signature needs the file in memory once: that happens in a short-lived child process, in the
// background after the upload is committed, so a serving process never holds a release in memory (its
// memory stays flat whatever the file's size; the child's peak is the file's size, measured in the bench).
// Both read the bytes through the store (`ctx.storage.read`, docs/decisions/0050-object-storage.md), from
// the local directory or the bucket alike: the child gets them through its stdin, never a path.
// Until a file has its digests the feeds leave it out: they never offer a missing or wrong hash.
import { spawn } from 'node:child_process';
import { createHash, type KeyObject } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { AppContext } from '../../context.ts';
import type { ReleaseFile } from '../../db/schema.ts';
import { releaseFileKey, type ObjectStore } from '../../storage/object-store/index.ts';
import { listFilesWithoutDigests, storeFileDigests } from './queries.ts';

const BATCH = 20;

/** A stored object's bytes as a Node stream, read on demand. */
async function objectBytes(storage: Pick<ObjectStore, 'read'>, key: string): Promise<Readable> {
  return Readable.fromWeb((await storage.read(key)) as WebReadableStream<Uint8Array>);
}

async function sha512OfObject(storage: Pick<ObjectStore, 'read'>, key: string): Promise<string> {
  const hash = createHash('sha512');
  for await (const chunk of await objectBytes(storage, key)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The child's program: reads one line of JSON `{ size, key }` (the key as PKCS#8 PEM) from stdin, then the
 * file's `size` bytes into one buffer allocated once (a release may be larger than 2 GiB, where one
 * Buffer.concat or fs.readFile stops), and writes the base64 signature to stdout. The key travels through
 * the pipe only, never on a command line or in the environment.
 */
const SIGN_PROGRAM = `
import { createPrivateKey, sign } from 'node:crypto';
let header = null;
let pending = [];
let bytes = null;
let offset = 0;
for await (const chunk of process.stdin) {
  let rest = chunk;
  if (header === null) {
    pending.push(chunk);
    const joined = Buffer.concat(pending);
    const newline = joined.indexOf(10);
    if (newline === -1) continue;
    header = JSON.parse(joined.subarray(0, newline).toString('utf8'));
    bytes = Buffer.allocUnsafe(header.size);
    pending = null;
    rest = joined.subarray(newline + 1);
  }
  if (offset + rest.length > bytes.length) throw new Error('more than the ' + bytes.length + ' bytes announced');
  rest.copy(bytes, offset);
  offset += rest.length;
}
if (header === null || offset !== bytes.length) throw new Error('the file ended after ' + offset + ' of ' + (header ? header.size : '?') + ' bytes');
process.stdout.write(sign(null, bytes, createPrivateKey(header.key)).toString('base64'));
`;

/** The base64 Ed25519 signature of `size` bytes read from `source`, made in a child process (see above). */
export function signBytesInChild(label: string, source: Readable, size: number, privateKey: KeyObject): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', SIGN_PROGRAM], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let fed: Error | null = null;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 && /^[A-Za-z0-9+/]{86}==$/.test(out)) resolve(out);
      else {
        const fedError = fed ? `; feeding it failed: ${fed.message}` : '';
        reject(new Error(`signing ${label} failed (exit ${code}): ${err.trim().split('\n').at(-1) ?? ''}${fedError}`));
      }
    });
    child.stdin.on('error', () => {}); // a child that ended early reports through its exit code
    child.stdin.write(`${JSON.stringify({ size, key: privateKey.export({ format: 'pem', type: 'pkcs8' }) })}\n`);
    pipeline(source, child.stdin).catch((error: unknown) => {
      // The store failed half way: the child must not sign what it got.
      fed = error instanceof Error ? error : new Error(String(error));
      child.kill();
    });
  });
}

async function digestFile(ctx: Pick<AppContext, 'db' | 'storage' | 'updateKeyring'>, file: ReleaseFile): Promise<void> {
  const objectKey = releaseFileKey(file.stored_name);
  const sha512 = file.sha512 ?? (await sha512OfObject(ctx.storage, objectKey));
  const key = ctx.updateKeyring().current;
  const signature = await signBytesInChild(objectKey, await objectBytes(ctx.storage, objectKey), file.size, key.privateKey);
  storeFileDigests(ctx.db, file.id, file.stored_name, { sha512, ed_signature: signature, ed_signature_kid: key.kid });
}

/**
 * Gives every file without them its SHA-512 and signature, one file at a time; returns how many it did. A file
 * that cannot be read is logged and skipped (tried again at the next run); `shouldStop` ends the work early.
 */
export async function fillFileDigests(
  ctx: Pick<AppContext, 'db' | 'storage' | 'log' | 'updateKeyring'>,
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
export function signFilesSoon(ctx: Pick<AppContext, 'db' | 'storage' | 'log' | 'updateKeyring'>): Promise<number> {
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
