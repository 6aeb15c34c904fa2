// The health checks a load balancer or systemd asks every serving process (README, Operations):
// /healthz says the process answers; /readyz says it can do its work: the database answers, a live build
// is being served, DATA_DIR is writable and its disk has room. Both are asked every few seconds, so every
// check is a system call or a prepared `select 1`, and the two file-system checks are cached briefly.
import fs from 'node:fs';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/client.ts';
import type { Config } from '../env.ts';
import type { StaticSite } from '../static/static-site.ts';
import { freeDiskBytes } from '../storage/disk.ts';

export const READINESS_CHECKS = ['database', 'build', 'data_dir', 'disk'] as const;
export type ReadinessCheck = (typeof READINESS_CHECKS)[number];

export interface Readiness {
  ready: boolean;
  /** The checks that failed, in READINESS_CHECKS order (empty when ready). */
  failed: ReadinessCheck[];
  /** 'ok' or what is wrong, per check. Fixed texts: the answer is public, so no paths or error details. */
  checks: Record<ReadinessCheck, string>;
}

export interface ReadinessOptions {
  config: Pick<Config, 'dataDir' | 'readyMinFreeBytes'>;
  db: Db;
  /** The build this process serves, null before the first one is live. */
  getSite: () => StaticSite | null;
  /** How long the DATA_DIR checks are reused (1 s): a burst of probes costs two system calls a second. */
  fileCheckCacheMs?: number;
  now?: () => number;
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
    const checks: Record<ReadinessCheck, string> = {
      database: database(),
      build: getSite() ? 'ok' : 'no live build is being served yet',
      data_dir: dataDir,
      disk,
    };
    const failed = READINESS_CHECKS.filter((name) => checks[name] !== 'ok');
    return { ready: failed.length === 0, failed, checks };
  };
}
