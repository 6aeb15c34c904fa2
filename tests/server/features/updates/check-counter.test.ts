// The update-check counter (issue 25 item 5): counts add up in memory and reach the table only at a flush,
// added to what is there; a flush that fails keeps them for the next one.
import { afterEach, expect, it } from 'vitest';
import { createCheckCounter } from '../../../../server/features/updates/check-counter.ts';
import { createTestContext, type TestContext } from '../../../helpers/test-context.ts';

let ctx: TestContext;
afterEach(() => ctx.cleanup());

const rows = () => ctx.db.$client.prepare('SELECT day, channel, platform, version, count FROM update_checks ORDER BY version').all();

it('adds the counts of each flush to the rows of their day, channel, platform and version', () => {
  ctx = createTestContext();
  const counter = createCheckCounter(ctx.db, ctx.log, 0);
  const check = { day: '2026-11-27', channel: 'stable', platform: 'windows' };
  counter.count({ ...check, version: '1.0.0' });
  counter.count({ ...check, version: '1.0.0' });
  counter.count({ ...check, version: '' });
  expect(rows()).toEqual([]);
  counter.flush();
  counter.count({ ...check, version: '1.0.0' });
  counter.flush();
  counter.flush();
  expect(rows()).toEqual([
    { ...check, version: '', count: 1 },
    { ...check, version: '1.0.0', count: 3 },
  ]);
});

it('keeps the counts when a flush fails, and writes them with the next', () => {
  ctx = createTestContext();
  const errors: unknown[] = [];
  const counter = createCheckCounter(ctx.db, { error: (_message: string, error?: unknown) => errors.push(error) }, 0);
  counter.count({ day: '2026-11-27', channel: 'beta', platform: 'macos', version: '2.0.0-beta.1' });
  ctx.db.$client.exec("CREATE TRIGGER refuse BEFORE INSERT ON update_checks BEGIN SELECT RAISE(ABORT, 'disk full'); END;");
  counter.flush();
  expect(errors).toHaveLength(1);
  ctx.db.$client.exec('DROP TRIGGER refuse');
  counter.count({ day: '2026-11-27', channel: 'beta', platform: 'macos', version: '2.0.0-beta.1' });
  counter.flush();
  expect(rows()).toEqual([{ day: '2026-11-27', channel: 'beta', platform: 'macos', version: '2.0.0-beta.1', count: 2 }]);
});
