// Preloaded with `--import` (NODE_OPTIONS) by tests/server/process/start-imports.test.ts: appends the name of
// every package a process loads to <LOADED_PACKAGES_DIR>/<pid>.txt, as it loads it, so the test can read what
// a serving process had loaded by the time it answered.
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';

const dir = process.env.LOADED_PACKAGES_DIR;
if (dir) {
  const file = path.join(dir, `${process.pid}.txt`);
  const seen = new Set<string>();
  module.registerHooks({
    load(url, context, nextLoad) {
      const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
      if (name && !seen.has(name)) {
        seen.add(name);
        fs.appendFileSync(file, `${name}\n`);
      }
      return nextLoad(url, context);
    },
  });
}
