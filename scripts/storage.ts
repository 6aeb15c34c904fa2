// `npm run storage -- migrate --to s3|local` (issue 30; docs/decisions/0050-object-storage.md): copies every
// stored file (public images, attached files, release files) from the other store into the named one,
// verifying each by its SHA-256, and marks the target complete only when every file is there. Resumable:
// a file already copied with the right hash is skipped, so a run cut short is simply run again.
//
// What "switching" means: this command never changes the setting. It reports success only when all
// files are there and verified; then it prints the setting to change and the restart to make. A server with
// STORAGE=s3 refuses to start unless the bucket's marker object (written here, last) says the bucket is
// complete, and /readyz HEADs that marker.
//
//   npm run storage -- migrate --to s3      the S3_* settings name the bucket (STORAGE may still be local)
//   npm run storage -- migrate --to local   the S3_* settings name the bucket to copy from
//
// Exit status: 0 every file there, 1 some failed (run it again), 2 usage or configuration error.
import path from 'node:path';
import { ConfigError, loadConfig } from '../server/env.ts';
import { createLocalObjectStore, createS3ObjectStore } from '../server/storage/object-store/index.ts';
import { migrateStore, type MigrationReport } from '../server/storage/object-store/migrate.ts';

export const USAGE = `usage: npm run storage -- migrate --to s3|local

  migrate --to s3      copy every file of DATA_DIR into the bucket named by the S3_* settings
  migrate --to local   copy every file of that bucket into DATA_DIR

Each file is verified by its SHA-256; run it again after an interruption, it skips what is there.
Nothing switches by itself: change STORAGE as printed at the end, then restart the server.`;

export function parseArgs(argv: string[]): { to: 'local' | 's3' } | null {
  const [command, flag, target] = argv;
  if (command !== 'migrate' || flag !== '--to' || (target !== 's3' && target !== 'local') || argv.length !== 3) return null;
  return { to: target };
}

/** `env`: the environment to read (the process's when not given, as every script reads it: server/env.ts). */
export async function runMigration(to: 'local' | 's3', print: (line: string) => void, env?: Record<string, string | undefined>): Promise<MigrationReport> {
  // The bucket's settings are read as if STORAGE=s3, whatever STORAGE says now.
  const config = loadConfig(env, { storage: 's3' });
  if (config.storage.kind !== 's3') throw new ConfigError('the S3_* settings are needed to name the bucket');
  const local = createLocalObjectStore(config);
  const bucket = createS3ObjectStore(config.storage);
  const [from, target] = to === 's3' ? [local, bucket] : [bucket, local];
  print(`Copying every stored file from ${describe(from.kind, config)} to ${describe(target.kind, config)} ...`);
  const report = await migrateStore({
    from,
    to: target,
    onFile: (key, outcome, done) => {
      if (outcome === 'failed' || done % 100 === 0) print(`  ${done} files (${outcome}: ${key})`);
    },
  });
  print(`${report.total} files: ${report.copied} copied, ${report.skipped} already there, ${report.failed.length} failed.`);
  for (const failure of report.failed) print(`  failed: ${failure.key}: ${failure.error}`);
  if (!report.complete) {
    print('Not every file is there: nothing was switched. Run the same command again; it copies only what is missing.');
    return report;
  }
  print(`Every file is in ${describe(target.kind, config)} and verified by its SHA-256.`);
  print(`To switch: set STORAGE=${to}${to === 's3' ? ' (with the S3_* settings)' : ''} and restart the server (README, Production).`);
  if (to === 's3') print('Files uploaded after this run are missed: stop the server, run this once more (it copies only those), switch, start.');
  return report;
}

function describe(kind: 'local' | 's3', config: ReturnType<typeof loadConfig>): string {
  return kind === 'local' ? `DATA_DIR (${config.dataDir})` : `the bucket "${config.storage.kind === 's3' ? config.storage.bucket : ''}"`;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (!args) {
    console.error(USAGE);
    return 2;
  }
  try {
    const report = await runMigration(args.to, (line) => console.log(line));
    return report.complete ? 0 : 1;
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${error.message}\nThe migration reads the bucket from the S3_* settings, whatever STORAGE says now (README, Production).`);
      return 2;
    }
    throw error;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`The migration failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
