// Helpers for the downloads API tests: the release form as the page sends it, releases made straight in
// the database (with a real file on disk) when a test is about something else than creating them.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../../server/context.ts';
import { insertDownloadItem, insertReleaseFile, type ReleaseWithFiles } from '../../server/features/downloads/queries.ts';
import type { ReleaseFile } from '../../server/db/schema.ts';
import { newStoredName, uploadTempDir } from '../../server/storage/release-files.ts';
import { localPathOf, releaseFileKey } from '../../server/storage/object-store/index.ts';
import type { ReleaseView } from '../../server/features/downloads/present.ts';

export type ReleaseFields = Partial<
  Record<'title' | 'body' | 'release' | 'is_current' | 'downloadable' | 'version' | 'channel' | 'released_at' | 'entitlement', string>
>;

/** The multipart form the downloads page sends: the text fields, then the file when there is one. */
export function releaseForm(fields: ReleaseFields, file?: { name: string; content: Buffer | string }): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  if (file) form.append('file', new File([Buffer.from(file.content)], file.name, { type: 'application/octet-stream' }));
  return form;
}

/** Deterministic bytes of any length (not all equal, so an offset error shows). */
export function patternBytes(length: number, seed = 0): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + seed) % 251;
  return bytes;
}

export function sha256Hex(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function sha512Hex(bytes: Buffer | string): string {
  return createHash('sha512').update(bytes).digest('hex');
}

export interface DirectFile {
  name: string;
  content: Buffer;
  platform?: ReleaseFile['platform'];
  arch?: ReleaseFile['arch'];
}

/** A file row of a release with its bytes written where the server keeps release files. */
export function addFileDirect(ctx: Pick<AppContext, 'db' | 'config'>, releaseId: number, file: DirectFile, options: { sha512?: boolean } = {}): ReleaseFile {
  const stored = newStoredName();
  const target = releaseFilePath(ctx.config, stored);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, file.content);
  return insertReleaseFile(ctx.db, {
    download_item_id: releaseId,
    name: file.name,
    stored_name: stored,
    size: file.content.length,
    sha256: sha256Hex(file.content),
    sha512: options.sha512 === false ? null : sha512Hex(file.content),
    platform: file.platform ?? 'any',
    arch: file.arch ?? 'universal',
  });
}

/** A release row with its files (by default one `setup.bin`) written where the server keeps release files. */
export function createReleaseDirect(
  ctx: Pick<AppContext, 'db' | 'config'>,
  options: {
    title?: string;
    release?: string;
    downloadable?: boolean;
    isCurrent?: boolean;
    file?: DirectFile | null;
    /** Instead of `file`: several files, oldest first. */
    files?: DirectFile[];
    version?: string | null;
    channel?: 'stable' | 'beta';
    releasedAt?: string;
    entitlement?: string | null;
  },
): ReleaseWithFiles {
  const file = options.file === undefined ? { name: 'setup.bin', content: patternBytes(1000) } : options.file;
  const item = insertDownloadItem(ctx.db, {
    title: options.title ?? 'A release',
    body: 'Notes',
    release: options.release ?? '1.0',
    is_current: options.isCurrent ? 1 : 0,
    downloadable: options.downloadable === false ? 0 : 1,
    version: options.version ?? null,
    channel: options.channel ?? 'stable',
    entitlement: options.entitlement ?? null,
    ...(options.releasedAt ? { released_at: options.releasedAt } : {}),
  });
  const files = (options.files ?? (file ? [file] : [])).map((each) => addFileDirect(ctx, item.id, each));
  return { ...item, files };
}

/** Where the local store keeps a release file (its key's path: docs/decisions/0050-object-storage.md). */
export function releaseFilePath(config: Pick<AppContext['config'], 'uploadsDir' | 'privateFilesDir'>, storedName: string): string {
  return localPathOf(config, releaseFileKey(storedName));
}

/** Every file under the release directory and the upload temp directory (to prove nothing is left). */
export function filesOnDisk(config: AppContext['config']): string[] {
  const dirs = [path.dirname(releaseFilePath(config, newStoredName())), uploadTempDir(config)];
  return dirs.flatMap((dir) => (fs.existsSync(dir) ? fs.readdirSync(dir).map((name) => path.join(dir, name)) : []));
}

export type { ReleaseView };
