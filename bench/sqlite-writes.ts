// How many small write transactions the one SQLite writer takes per second (docs/scaling.md#users-and-sessions):
// the unit is a login rate limiter's consume(), the write a sign-in repeats most (server/auth/rate-limit.ts),
// on a fresh database with the server's own pragmas. Run alone it shows one process; with --processes 2
// two processes write to the same file at once, as the serving processes do.
//
//   node bench/sqlite-writes.ts [--seconds 3] [--processes 2]
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createRateLimiter } from '../server/auth/rate-limit.ts';
import { openDatabase } from '../server/db/client.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '3' }, processes: { type: 'string', default: '1' }, file: { type: 'string' } } });
const seconds = Number(values.seconds);

function writeFor(file: string, label: string): number {
  const db = openDatabase(file);
  const limiter = createRateLimiter({ db, name: 'login', limit: 5, windowMs: 15 * 60_000, now: Date.now });
  const end = Date.now() + seconds * 1000;
  let count = 0;
  // Distinct keys, as distinct visitors would be: every consume() is one BEGIN IMMEDIATE ... COMMIT.
  while (Date.now() < end) limiter.consume(`${label}-${count++}@example.com|203.0.113.0`);
  db.$client.close();
  return count / seconds;
}

if (values.file) {
  // A child: writes to the parent's database and reports its rate.
  process.send?.(writeFor(values.file, `p${process.pid}`));
} else {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-writes-'));
  const file = path.join(dir, 'site.db');
  openDatabase(file).$client.close();
  const processes = Math.max(1, Number(values.processes));
  const rates = await Promise.all(
    Array.from(
      { length: processes },
      () =>
        new Promise<number>((resolve, reject) => {
          const child = fork(import.meta.filename, ['--file', file, '--seconds', String(seconds)]);
          child.on('message', (rate) => resolve(Number(rate)));
          child.on('error', reject);
        }),
    ),
  );
  const total = rates.reduce((sum, rate) => sum + rate, 0);
  console.log(`${processes} process(es), ${seconds} s: ${Math.round(total)} write transactions/s (${rates.map((rate) => Math.round(rate)).join(' + ')})`);
  fs.rmSync(dir, { recursive: true, force: true });
}
