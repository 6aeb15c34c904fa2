// The health checks a load balancer or systemd asks every serving process (README, Operations):
// /healthz says the process answers; /readyz says it can do its work: the database answers, a live build
// is being served, DATA_DIR is writable and its disk has room, and with STORAGE=s3 the bucket answers a HEAD
// of its marker object (docs/decisions/0050-object-storage.md). Both are asked every few seconds, so every
// check is a system call or a prepared `select 1`, the two file-system checks are cached briefly, and the
// bucket is asked in the background at most every few seconds, the probe reading its last answer.
import fs from 'node:fs';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/client.ts';
import type { Config } from '../env.ts';
import type { StaticSite } from '../static/static-site.ts';
import { freeDiskBytes } from '../storage/disk.ts';
import type { ObjectStore, S3ObjectStore } from '../storage/object-store/index.ts';

export const READINESS_CHECKS = ['database', 'build', 'data_dir', 'disk', 'storage'] as const;
export type ReadinessCheck = (typeof READINESS_CHECKS)[number];

export interface Readiness {
  ready: boolean;
  /** The checks that failed, in READINESS_CHECKS order (empty when ready). */
  failed: ReadinessCheck[];
  /** 'ok' or what is wrong, per check (`storage` only with a bucket). Fixed texts: the answer is public, so no paths or error details. */
  checks: Partial<Record<ReadinessCheck, string>>;
}

export interface ReadinessOptions {
  config: Pick<Config, 'dataDir' | 'readyMinFreeBytes'>;
  db: Db;
  /** The build this process serves, null before the first one is live. */
  getSite: () => StaticSite | null;
  /** How long the DATA_DIR checks are reused (1 s): a burst of probes costs two system calls a second. */
  fileCheckCacheMs?: number;
  now?: () => number;
  /** With STORAGE=s3: the bucket's last answer (createBucketProbe). */
  bucket?: () => string;
}

/** A store whose marker object can be HEADed (server/storage/object-store/s3.ts). */
export type MarkedStore = Pick<S3ObjectStore, 'headMarker'>;

/**
 * The bucket's state for /readyz: a HEAD of its marker object, asked again in the background when the
 * last answer is older than `everyMs`, so a probe never waits on the network. Before the first answer, and
 * when it is older than three rounds (the bucket hangs), the bucket counts as not ready.
 */
export function createBucketProbe(store: MarkedStore, options: { everyMs?: number; now?: () => number } = {}): () => string {
  const everyMs = options.everyMs ?? 5_000;
  const now = options.now ?? Date.now;
  let last: { at: number; state: string } | null = null;
  let asking = false;
  const ask = () => {
    if (asking) return;
    asking = true;
    store
      .headMarker()
      .then(
        (marker) => (marker === 'ok' ? 'ok' : 'the bucket has no marker object: run `npm run storage -- migrate --to s3`'),
        () => 'the bucket does not answer',
      )
      .then((state) => {
        last = { at: now(), state };
        asking = false;
      });
  };
  // Asked at once, so the first probe after a start already has an answer to read.
  ask();
  return () => {
    const at = now();
    if (!last || at - last.at >= everyMs) ask();
    if (!last) return 'the bucket has not answered yet';
    if (at - last.at > 3 * everyMs + 10_000) return 'the bucket does not answer';
    return last.state;
  };
}

const MiB = 1024 * 1024;

export function createReadinessCheck(options: ReadinessOptions): () => Readiness {
  const { config, db, getSite } = options;
  const cacheMs = options.fileCheckCacheMs ?? 1_000;
  const now = options.now ?? Date.now;
  let selectOne: Statement | null = null;
  let files: { at: number; dataDir: string; disk: string } | null = null;

  const database = (): string => {
    try {
      selectOne ??= db.$client.prepare('select 1');
      selectOne.get();
      return 'ok';
    } catch {
      // A closed or broken connection: prepare it again at the next probe.
      selectOne = null;
      return 'the database does not answer';
    }
  };

  const fileChecks = () => {
    const at = now();
    if (files && at - files.at < cacheMs) return files;
    let dataDir = 'ok';
    try {
      fs.accessSync(config.dataDir, fs.constants.W_OK);
    } catch {
      dataDir = 'DATA_DIR is not writable';
    }
    let disk = 'ok';
    try {
      const free = freeDiskBytes(config.dataDir);
      if (free < config.readyMinFreeBytes)
        disk = `${Math.floor(free / MiB)} MB free, below READY_MIN_FREE_MB (${Math.round(config.readyMinFreeBytes / MiB)} MB)`;
    } catch {
      disk = 'the free space of DATA_DIR cannot be read';
    }
    files = { at, dataDir, disk };
    return files;
  };

  return () => {
    const { dataDir, disk } = fileChecks();
    const checks: Partial<Record<ReadinessCheck, string>> = {
      database: database(),
      build: getSite() ? 'ok' : 'no live build is being served yet',
      data_dir: dataDir,
      disk,
      ...(options.bucket ? { storage: options.bucket() } : {}),
    };
    const failed = READINESS_CHECKS.filter((name) => checks[name] !== undefined && checks[name] !== 'ok');
    return { ready: failed.length === 0, failed, checks };
  };
}

/** The bucket probe of a store, or undefined for the local store (DATA_DIR's own checks cover it). */
export function bucketProbeFor(store: ObjectStore | undefined): (() => string) | undefined {
  return store?.kind === 's3' ? createBucketProbe(store) : undefined;
}
