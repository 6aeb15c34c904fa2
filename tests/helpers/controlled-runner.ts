// A fake build runner whose builds finish only when the test says so, for testing the publish queue's
// timing (coalescing, failures) without Astro. Each build sees the snapshot the publisher exported.
import fs from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';
import type { BuildJob, BuildResult, BuildRunner } from '../../server/publish/build-runner.ts';
import { parseSnapshot, type SiteSnapshot } from '../../common/snapshot-schema.ts';
import { SNAPSHOT_FILE } from '../../common/snapshot-types.ts';

export interface HeldBuild {
  job: BuildJob;
  snapshot: SiteSnapshot;
  /** Writes a small site (index.html showing the first home title, an asset) and reports success. */
  succeed(): void;
  /** Leaves a partial output behind, as a crashed build would, and reports failure with this log. */
  fail(log: string): void;
  /** Rejects, as a runner bug would. */
  crash(error: Error): void;
}

export interface ControlledRunner {
  runBuild: BuildRunner;
  builds: HeldBuild[];
  /** Each call of runBuild.prepare: how many builds had started by then. */
  prepared: { buildsStarted: number; config: BuildJob['config'] }[];
  /** Waits until the n-th build (1-based) has started and returns it. */
  started(n: number): Promise<HeldBuild>;
}

export function homePageHtml(snapshot: SiteSnapshot): string {
  return `<!DOCTYPE html><html><head><title>${snapshot.site.name}</title></head><body><h1>${snapshot.home[0]?.title ?? 'empty'}</h1></body></html>`;
}

export function createControlledRunner(): ControlledRunner {
  const builds: HeldBuild[] = [];
  const prepared: ControlledRunner['prepared'] = [];
  const build = (job: BuildJob) =>
    new Promise<BuildResult>((resolve, reject) => {
      const file = path.join(job.contentDir, SNAPSHOT_FILE);
      const snapshot = parseSnapshot(JSON.parse(fs.readFileSync(file, 'utf8')), file);
      builds.push({
        job,
        snapshot,
        succeed() {
          fs.mkdirSync(path.join(job.outDir, '_astro'), { recursive: true });
          fs.writeFileSync(path.join(job.outDir, '_astro', 'app.js'), 'console.log(1)');
          fs.writeFileSync(path.join(job.outDir, 'index.html'), homePageHtml(snapshot));
          resolve({ ok: true, log: 'built\n' });
        },
        fail(log) {
          fs.writeFileSync(path.join(job.outDir, 'half-written.html'), '<h1>partial');
          resolve({ ok: false, log });
        },
        crash: reject,
      });
    });
  const runBuild: BuildRunner = Object.assign(build, {
    prepare: (config: BuildJob['config']) => {
      prepared.push({ buildsStarted: builds.length, config });
      return Promise.resolve(true);
    },
  });
  return {
    runBuild,
    builds,
    prepared,
    async started(n) {
      await vi.waitFor(() => {
        if (builds.length < n) throw new Error(`only ${builds.length} of ${n} builds started`);
      });
      return builds[n - 1] as HeldBuild;
    },
  };
}
