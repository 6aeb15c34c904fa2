// The peak a build process or the renderer reports of one piece of work (server/publish/peak-rss.ts). Both are
// started by the server, which may hold hundreds of MB by then: Linux counts the parent's resident memory at
// the fork in the child's getrusage maxRSS, which no reset lowers, so a renderer started late reported the
// server's size as its every render's peak (docs/decisions/0058-first-build-search-after-live.md).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../..');
const MB = 1024 * 1024;
// clear_refs and VmHWM are Linux's; elsewhere the peak covers the whole life of the process, as documented.
const linux = fs.existsSync('/proc/self/clear_refs');
if (!linux) console.warn('peak-rss test skipped: resetting a peak needs Linux /proc (CI runs on Linux)');

describe.skipIf(!linux)('the peak of a process started by a large one', () => {
  it('is its own work after a reset, not the resident memory of the process that started it', () => {
    // This process holds 300 MB (touched) while it starts the child.
    const ballast = Buffer.alloc(300 * MB, 1);
    const child = spawnSync(process.execPath, ['tests/helpers/peak-rss-child.ts'], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    expect(ballast.length).toBe(300 * MB);
    const { afterReset, afterWork } = JSON.parse(child.stdout) as { afterReset: number; afterWork: number };
    // A Node process with nothing loaded: well under the 300 MB of its parent.
    expect(afterReset).toBeLessThan(150 * MB);
    // Its 48 MB are in the peak read after them.
    expect(afterWork).toBeGreaterThanOrEqual(afterReset + 40 * MB);
    expect(afterWork).toBeLessThan(200 * MB);
  });
});
