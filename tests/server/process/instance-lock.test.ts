// One server per DATA_DIR: the lock is refused while held (in this process or another), names the holder,
// and is free again once released or once its holder is gone, even after a SIGKILL (no stale lock file).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireInstanceLock, InstanceLockedError } from '../../../server/process/instance-lock.ts';
import { makeTempDir } from '../../helpers/test-context.ts';

const dirs: string[] = [];
const holders: ChildProcess[] = [];
afterEach(() => {
  for (const holder of holders.splice(0)) holder.kill('SIGKILL');
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = makeTempDir('site-lock-');
  dirs.push(dir);
  return dir;
}

describe('acquireInstanceLock', () => {
  it('refuses a second holder on the same data directory with a message naming the first, and is free after release', () => {
    const dir = dataDir();
    const first = acquireInstanceLock(dir);
    expect(() => acquireInstanceLock(dir)).toThrow(InstanceLockedError);
    expect(() => acquireInstanceLock(dir)).toThrow(`Another server is already running on DATA_DIR ${dir} (pid ${process.pid})`);
    // Another data directory is another lock.
    acquireInstanceLock(dataDir()).release();
    first.release();
    acquireInstanceLock(dir).release();
  });

  it('is free again as soon as a holder process is killed', async () => {
    const dir = dataDir();
    const script = `import { acquireInstanceLock } from ${JSON.stringify(path.resolve('server/process/instance-lock.ts'))}; acquireInstanceLock(process.argv[1]); console.log('held'); setInterval(() => {}, 1000);`;
    const holder = spawn(process.execPath, ['--input-type=module', '-e', script, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    holders.push(holder);
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    expect(() => acquireInstanceLock(dir)).toThrow(`(pid ${holder.pid})`);
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    acquireInstanceLock(dir).release();
  });
});
