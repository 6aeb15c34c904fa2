// A publisher in a process of its own for the kill -9 drill (tests/server/publish/publish-kill9.test.ts):
// it publishes once in full, then publishes incrementally and SIGKILLs itself at the point named on the
// command line, as a power cut or the OOM killer would, with no chance to clean up.
//   node tests/helpers/publish-kill-child.ts <DATA_DIR> <mid-render|before-live|before-switch|after-switch>
import path from 'node:path';
import { openDatabase } from '../../server/db/client.ts';
import { loadConfig } from '../../server/env.ts';
import { createLogger } from '../../server/log.ts';
import { createPublisher } from '../../server/publish/publisher.ts';
import { createGenerationRunner } from './generation-runner.ts';

const [dataDir, point] = process.argv.slice(2);
if (!dataDir || !point) throw new Error('usage: publish-kill-child.ts <DATA_DIR> <point>');
const config = loadConfig({
  NODE_ENV: 'test',
  DATA_DIR: dataDir,
  CONTENT_DIR: path.join(dataDir, 'content'),
  LOG_LEVEL: 'silent',
  SITE_URL: 'http://localhost:4321',
});
const db = openDatabase(config.databaseFile);
const gen = createGenerationRunner();
const die = (): void => void process.kill(process.pid, 'SIGKILL');
const publisher = createPublisher({
  config,
  db,
  log: createLogger('silent'),
  runBuild: gen.runner,
  onLive: () => {},
  fault: (at) => {
    if (gen.calls.render > 0 && at === point) die();
  },
});
publisher.schedule('first');
await publisher.whenIdle();
if (point === 'mid-render') gen.midRender = die;
publisher.schedule('an edit');
await publisher.whenIdle();
// Reaching here means the point was never passed: the drill must notice.
process.exit(3);
