// The publish status every serving process reads (server/publish/shared-publisher.ts): a write taken by
// any process reads 'building' from the moment it is recorded until the primary's build that includes it
// has finished; requests taken up together make one build; a request left by a stopped run is built.
import { afterEach, describe, expect, it } from 'vitest';
import { createPrimaryPublisher, createRemotePublisher, readSharedPublishStatus } from '../../../server/publish/shared-publisher.ts';
import { createControlledRunner } from '../../helpers/controlled-runner.ts';
import { createTestContext, type TestContext } from '../../helpers/test-context.ts';

let ctx: TestContext;
afterEach(() => ctx?.cleanup());

function setUp() {
  ctx = createTestContext();
  const runner = createControlledRunner();
  const primary = createPrimaryPublisher({ config: ctx.config, db: ctx.db, log: ctx.log, runBuild: runner.runBuild, onLive: () => {} });
  const notified: string[] = [];
  const remote = createRemotePublisher({ db: ctx.db, log: ctx.log, notifyPrimary: (reason) => notified.push(reason) });
  return { runner, primary, remote, notified };
}

describe('the shared publish status', () => {
  it('reads building from the recorded request on, in every process, until the build that includes it is live', async () => {
    const { runner, primary, remote, notified } = setUp();
    expect(remote.status().state).toBe('idle');

    remote.schedule('home section 1 updated');
    expect(notified).toEqual(['home section 1 updated']);
    // The primary has not heard of it yet: still 'building' for anyone who looks.
    expect(readSharedPublishStatus(ctx.db).state).toBe('building');

    primary.takeUp(notified[0]);
    const build = await runner.started(1);
    expect(remote.status()).toMatchObject({ state: 'building', pending: false });
    build.succeed();
    await primary.publisher.whenIdle();
    const live = remote.status();
    expect(live.state).toBe('idle');
    expect(live.lastSuccess?.buildId).toBe(build.job.id);
    expect(live.currentBuildId).toBe(build.job.id);
  });

  it('turns requests recorded during a build into exactly one more build, and reports it pending meanwhile', async () => {
    const { runner, primary, remote } = setUp();
    remote.schedule('first');
    primary.takeUp();
    const first = await runner.started(1);
    remote.schedule('second');
    remote.schedule('third');
    expect(remote.status()).toMatchObject({ state: 'building', pending: true });
    primary.takeUp();
    primary.takeUp();
    first.succeed();
    (await runner.started(2)).succeed();
    await primary.publisher.whenIdle();
    expect(runner.builds).toHaveLength(2);
    expect(remote.status().state).toBe('idle');
  });

  it('builds a request that a stopped run recorded but never took up', async () => {
    const first = setUp();
    first.remote.schedule('recorded before a crash');
    // A new primary on the same database: what the old one never took up is still waiting.
    const runner = createControlledRunner();
    const restarted = createPrimaryPublisher({ config: ctx.config, db: ctx.db, log: ctx.log, runBuild: runner.runBuild, onLive: () => {} });
    expect(readSharedPublishStatus(ctx.db).state).toBe('building');
    restarted.takeUp('requested before the last stop');
    (await runner.started(1)).succeed();
    await restarted.publisher.whenIdle();
    expect(readSharedPublishStatus(ctx.db).state).toBe('idle');
  });

  it('shows a failed build to every process, with its log', async () => {
    const { runner, primary, remote } = setUp();
    remote.schedule('edit');
    primary.takeUp();
    (await runner.started(1)).fail('astro: something broke');
    await primary.publisher.whenIdle();
    expect(remote.status()).toMatchObject({ state: 'failed', lastFailure: { log: expect.stringContaining('something broke') } });
  });
});
