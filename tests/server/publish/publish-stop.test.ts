// A publish at a graceful stop (docs/decisions/0033-graceful-stop.md): a build that finishes within the
// deadline goes live and nothing is built again; one that does not is abandoned with the live build intact
// and is built at the next start; a request that comes during the stop starts no build now but at the next
// start; and a primary killed mid-build leaves a status that makes the next start build again.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CURRENT_LINK } from '../../../server/publish/build-dirs.ts';
import { createPrimaryPublisher } from '../../../server/publish/shared-publisher.ts';
import { createControlledRunner } from '../../helpers/controlled-runner.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

let ctx: TestContext;
afterEach(() => ctx?.cleanup());

function primaryOn(runner = createControlledRunner()) {
  return { runner, ...createPrimaryPublisher({ config: ctx.config, db: ctx.db, log: ctx.log, runBuild: runner.runBuild, onLive: () => {} }) };
}

const currentTarget = () => fs.readlinkSync(path.join(ctx.config.buildsDir, CURRENT_LINK));

/** A first build made live, so there is a live build the stop must leave alone. */
async function withLiveBuild() {
  const first = primaryOn();
  first.publisher.schedule('first');
  (await first.runner.started(1)).succeed();
  await first.publisher.whenIdle();
  return first;
}

describe('publishing at a graceful stop', () => {
  it('waits for a running build that finishes before the deadline, and builds nothing at the next start', async () => {
    ctx = createTestContext();
    const { runner, publisher, stop } = await withLiveBuild();
    publisher.schedule('edit');
    const running = await runner.started(2);

    const stopped = stop(Date.now() + 5_000);
    setTimeout(() => running.succeed(), 50);
    await stopped;
    expect(publisher.status()).toMatchObject({ state: 'idle', pending: false, currentBuildId: running.job.id });
    expect(currentTarget()).toBe(running.job.id);

    const next = primaryOn();
    next.takeUp('requested before the last stop');
    expect(next.publisher.status().state).toBe('idle');
    expect(next.runner.builds).toHaveLength(0);
  });

  it('abandons a build still running at the deadline: the live build stays, the next start builds again', async () => {
    ctx = createTestContext();
    const { runner, publisher, stop } = await withLiveBuild();
    const live = currentTarget();
    publisher.schedule('edit during the stop');
    await runner.started(2);

    const started = Date.now();
    await stop(Date.now() + 200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    // Never finished: `current` still names the build that was live, which is complete.
    expect(currentTarget()).toBe(live);
    expect(fs.existsSync(path.join(ctx.config.buildsDir, live, 'index.html'))).toBe(true);

    const next = primaryOn();
    next.takeUp('requested before the last stop');
    const rebuilt = await next.runner.started(1);
    expect(rebuilt.snapshot).toBeDefined();
    rebuilt.succeed();
    await next.publisher.whenIdle();
    expect(currentTarget()).toBe(rebuilt.job.id);
  });

  it('starts no build for a change made during the stop, and builds it at the next start', async () => {
    ctx = createTestContext();
    const { runner, publisher, stop, takeUp } = await withLiveBuild();
    const stopped = stop(Date.now() + 1_000);
    publisher.schedule('a request that was still in flight');
    takeUp('a message from another process');
    await stopped;
    expect(runner.builds).toHaveLength(1);

    const next = primaryOn();
    next.takeUp('requested before the last stop');
    (await next.runner.started(1)).succeed();
    await next.publisher.whenIdle();
    expect(next.runner.builds).toHaveLength(1);
  });

  it('builds again after a primary that died mid-build (no stop ran)', async () => {
    ctx = createTestContext();
    const { runner, publisher } = await withLiveBuild();
    publisher.schedule('edit');
    await runner.started(2);
    // The process is gone here (kill -9): only what it wrote to the database remains.

    const next = primaryOn();
    next.takeUp('requested before the last stop');
    (await next.runner.started(1)).succeed();
    await next.publisher.whenIdle();
    expect(next.publisher.status().state).toBe('idle');
    // Taken up once: a later look builds nothing more.
    next.takeUp();
    expect(next.runner.builds).toHaveLength(1);
  });
});
