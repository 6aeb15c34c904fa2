// Moving every stored file from one store to the other (`npm run storage -- migrate --to s3|local`,
// docs/decisions/0050-object-storage.md). Every key of both areas is listed in the source (the local
// directories walked, or the bucket's prefixes listed), so release files are covered whatever their table
// looks like. Each file is copied with its SHA-256 computed on the way, then read back from the target and
// hashed again; a file already in the target with the same hash is skipped, so a run cut short is simply
// run again. Only a run that has every file there and verified marks the target complete: for a bucket its
// marker object, without which a server with STORAGE=s3 refuses to start (ensureStoreComplete).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { STORE_AREAS } from './keys.ts';
import type { ObjectStore } from './types.ts';

export interface MigrationReport {
  total: number;
  copied: number;
  /** Already in the target with the same SHA-256 (a run before this one copied them). */
  skipped: number;
  failed: { key: string; error: string }[];
  /** True when every file is in the target and verified, and the target was marked complete. */
  complete: boolean;
}

export interface MigrationOptions {
  from: ObjectStore;
  to: ObjectStore;
  /** Told after each file: for the script's progress line. */
  onFile?: (key: string, outcome: 'copied' | 'skipped' | 'failed', done: number) => void;
}

async function sha256Of(store: ObjectStore, key: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of await store.read(key)) hash.update(chunk);
  return hash.digest('hex');
}

export async function migrateStore({ from, to, onFile }: MigrationOptions): Promise<MigrationReport> {
  if (from.kind === to.kind) throw new Error(`both stores are ${from.kind}: nothing to move`);
  const report: MigrationReport = { total: 0, copied: 0, skipped: 0, failed: [], complete: false };
  for (const area of STORE_AREAS) {
    for await (const { key, size } of from.list(`${area}/`)) {
      report.total++;
      let outcome: 'copied' | 'skipped' | 'failed';
      try {
        const there = await to.head(key);
        if (there && there.size === size && (await sha256Of(to, key)) === (await sha256Of(from, key))) {
          outcome = 'skipped';
        } else {
          const source = Readable.fromWeb((await from.read(key)) as WebReadableStream<Uint8Array>);
          const copied = await to.putStream(key, source);
          if (copied.size !== size) throw new Error(`copied ${copied.size} bytes of ${size}`);
          const stored = await sha256Of(to, key);
          if (stored !== copied.sha256) throw new Error(`the copy reads back with SHA-256 ${stored}, the original has ${copied.sha256}`);
          outcome = 'copied';
        }
      } catch (error) {
        outcome = 'failed';
        report.failed.push({ key, error: error instanceof Error ? error.message : String(error) });
      }
      if (outcome !== 'failed') report[outcome]++;
      onFile?.(key, outcome, report.total);
    }
  }
  if (report.failed.length > 0) return report;
  if (to.kind === 's3') await to.writeMarker({ complete: true, files: report.total, from: from.kind, at: new Date().toISOString() });
  // The bucket no longer holds every file once the site writes to the disk again: switching back needs a new migration.
  if (from.kind === 's3') await from.deleteMarker();
  report.complete = true;
  return report;
}
