// kill -9 during an incremental publish (issue 31): a publisher process SIGKILLed half way through a render,
// before the serving processes load the new build, right before and right after `builds/current` switches.
// Whatever the moment, `builds/current` names a whole build of one generation, and the next start publishes
// over whatever the dead one left, pruning it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPublisher, findCurrentBuild } from '../../../server/publish/publisher.ts';
import { createGenerationRunner, readGenerations } from '../../helpers/generation-runner.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../..');
let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext();
});
afterEach(() => ctx.cleanup());

function buildDirs(): string[] {
  return fs.readdirSync(ctx.config.buildsDir).filter((name) => /^\d{8}T/.test(name));
}

describe('a publisher killed with SIGKILL during an incremental publish', () => {
  const OLD = { 'index.html': 1, 'a.html': 1, 'b.html': 1, 'c.html': 1 };
  // The incremental build: the rendered pages of generation 2, the rest links to the old build's files.
  const NEW = { 'index.html': 1, 'a.html': 2, 'b.html': 2, 'c.html': 1 };
  it.each([
    ['mid-render', 'the old build', OLD],
    ['before-live', 'the old build', OLD],
    ['before-switch', 'the old build', OLD],
    ['after-switch', 'the new build', NEW],
  ] as const)('at %s leaves builds/current naming %s, whole; the next start publishes and prunes the rest', async (point, _which, expected) => {
    const child = spawnSync(process.execPath, ['tests/helpers/publish-kill-child.ts', ctx.dataDir, point], { cwd: PROJECT_ROOT, encoding: 'utf8' });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    // The dead process left its half-made build (or, after the switch, the old one) beside the live one, and
    // the first build, kept as the one before its search-indexed copy (the first build goes live before its
    // index: docs/decisions/0058-first-build-search-after-live.md).
    const leftBehind = buildDirs();
    expect(leftBehind).toHaveLength(3);

    const current = findCurrentBuild(ctx.config);
    expect(current).not.toBeNull();
    const pages = readGenerations(current?.dir ?? '');
    expect(pages).toEqual(expected);

    // The next start: a fresh publisher (no renderer kept, so a full build) over the same builds.
    const gen = createGenerationRunner();
    const publisher = createPublisher({ config: ctx.config, db: ctx.db, log: ctx.log, runBuild: gen.runner, onLive: () => {} });
    expect(publisher.status().currentBuildId).toBe(current?.id);
    publisher.schedule('requested before the last stop');
    await publisher.whenIdle();
    const after = publisher.status();
    expect(after.state).toBe('idle');
    expect(gen.calls).toMatchObject({ full: 1, render: 0 });
    // Only the new build and the one it replaced remain (the search refresh's copy and the full build before
    // it): what the dead process left is pruned.
    const remaining = buildDirs();
    expect(remaining).toHaveLength(2);
    expect(remaining).toContain(after.currentBuildId);
    expect(remaining.filter((id) => leftBehind.includes(id))).toEqual([]);
    expect(readGenerations(findCurrentBuild(ctx.config)?.dir ?? '')).toEqual({ 'index.html': 1, 'a.html': 1, 'b.html': 1, 'c.html': 1 });
    expect(fs.readdirSync(ctx.config.buildsDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
