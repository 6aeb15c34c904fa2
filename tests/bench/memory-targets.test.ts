// `npm run bench` fails (exit 1) when a target is missed. Issue 31's goals must be checked and printed NOT
// MET honestly: a publish's peak ≤ 300 MB at 1,000 and 5,000 posts, save → live ≤ 1 s / 1.5 s and ≤ 1.5 s /
// 2 s right after another save, cold start of 5,000 posts ≤ 15 s, the production recipe idle at ≤ 400 MB PSS
// at 1,000 posts, a restart that serves without building; `--only publish` must not fail for the serving
// figures it never measured.
import { describe, expect, it } from 'vitest';
import { checkTargets, formatReport, type BenchReport, type SizeResult } from '../../bench/lib/report.ts';

const MB = 1024 * 1024;

function size(posts: number, peakBuildBytes: number, seconds = 0.5, extra: Partial<SizeResult> = {}): SizeResult {
  return {
    posts,
    users: 10,
    coldBuildSeconds: 10,
    coldBuildPeakBytes: peakBuildBytes,
    idleServerBytes: 200 * MB,
    readyBuildProcessBytes: 220 * MB,
    idleEmbeddedPssBytes: 600 * MB,
    idleProductionPssBytes: 350 * MB,
    production: {
      restartServedSeconds: 0.8,
      restartBuilt: false,
      idlePssBytes: 350 * MB,
      processes: 5,
      afterPublishPssBytes: 700 * MB,
      afterPublishSeconds: 0.6,
    },
    pages: [],
    staticServing: null,
    api: null,
    licensing: null,
    logins: null,
    publish: { seconds, peakBuildBytes, buildMs: 400, rightBehindSeconds: 0.9, rightBehindPeakBytes: peakBuildBytes },
    mailing: null,
    ...extra,
  };
}

function report(sizes: SizeResult[], only: string | null): BenchReport {
  return {
    at: '2026-11-25T00:00:00.000Z',
    machine: { cpus: 2, cpuModel: 'test', memoryBytes: 8 * 1024 * MB, node: 'v24' },
    settings: { seconds: 1, rounds: 1, warmUpSeconds: 1, connections: 1, users: 10, mail: 1, only },
    references: { wrk: false, nginx: false, chromium: false },
    sizes,
  };
}

const named = (checks: ReturnType<typeof checkTargets>, prefix: string) => checks.filter((check) => check.name.startsWith(prefix));

describe('the bench targets of issue 31', () => {
  it('hold a publish at ≤ 300 MB at both sizes, missed just above', () => {
    const met = named(checkTargets(report([size(1000, 300 * MB), size(5000, 300 * MB)], 'publish')), 'peak memory of a publish');
    expect(met.map((check) => [check.name, check.met])).toEqual([
      ['peak memory of a publish (1000 posts)', true],
      ['peak memory of a publish (5000 posts)', true],
    ]);
    const missed = named(checkTargets(report([size(1000, 301 * MB), size(5000, 301 * MB)], 'publish')), 'peak memory of a publish');
    expect(missed.map((check) => [check.actual, check.met])).toEqual([
      ['301 MB', false],
      ['301 MB', false],
    ]);
  });

  it('check save → live at ≤ 1 s and ≤ 1.5 s, right after another at ≤ 1.5 s and ≤ 2 s', () => {
    const checks = checkTargets(report([size(1000, 200 * MB, 1.0), size(5000, 200 * MB, 1.51)], 'publish'));
    expect(named(checks, 'save → live (').map((check) => [check.actual, check.met])).toEqual([
      ['1.00 s', true],
      ['1.51 s', false],
    ]);
    const behind = checkTargets(
      report(
        [
          size(1000, 200 * MB, 0.5, { publish: { seconds: 0.5, peakBuildBytes: 1, buildMs: 1, rightBehindSeconds: 1.6, rightBehindPeakBytes: 1 } }),
          size(5000, 200 * MB, 0.5, { publish: { seconds: 0.5, peakBuildBytes: 1, buildMs: 1, rightBehindSeconds: 2.0, rightBehindPeakBytes: 1 } }),
        ],
        'publish',
      ),
    );
    expect(named(behind, 'save → live right after').map((check) => check.met)).toEqual([false, true]);
  });

  it('check the cold start at 5,000 posts, the idle production PSS at 1,000 and a restart without a build', () => {
    const checks = checkTargets(
      report(
        [
          size(1000, 200 * MB, 0.5, { idleProductionPssBytes: 401 * MB }),
          size(5000, 200 * MB, 0.5, {
            coldBuildSeconds: 15.2,
            production: { restartServedSeconds: 1, restartBuilt: true, idlePssBytes: 1, processes: 1, afterPublishPssBytes: 1, afterPublishSeconds: 1 },
          }),
        ],
        'publish',
      ),
    );
    expect(named(checks, 'cold start').map((check) => [check.name, check.met])).toEqual([['cold start → first build served (5000 posts)', false]]);
    expect(named(checks, 'idle memory, production recipe').map((check) => [check.actual, check.met])).toEqual([['401 MB', false]]);
    expect(named(checks, 'restart with an existing build').map((check) => check.met)).toEqual([true, false]);
    // The table prints every missed goal as NOT MET.
    expect(formatReport(report([size(1000, 301 * MB)], 'publish'), checkTargets(report([size(1000, 301 * MB)], 'publish')))).toMatch(
      /peak memory of a publish \(1000 posts\).*301 MB.*NOT MET/,
    );
  });

  it('with --only publish, skip the serving targets instead of reporting them missed; a full run reports them', () => {
    expect(checkTargets(report([size(1000, 200 * MB)], 'publish')).every((check) => check.met)).toBe(true);
    expect(checkTargets(report([size(1000, 200 * MB)], null)).some((check) => check.actual.startsWith('NOT MEASURED'))).toBe(true);
  });

  it('prints the page-weight table only for a run that weighed pages (an --only run weighs none)', () => {
    const onlyPublish = report([size(1000, 200 * MB)], 'publish');
    expect(formatReport(onlyPublish, checkTargets(onlyPublish))).not.toContain('### Page weight');
    const page = { path: '/news/', status: 200, htmlBytes: 30_000, htmlGzipBytes: 6_000, jsFiles: 5, jsGzipBytes: 12_000, jsTransferredBytes: 13_000 };
    const weighed = report([size(1000, 200 * MB, 0.5, { pages: [page] })], null);
    expect(formatReport(weighed, checkTargets(weighed))).toMatch(/### Page weight \(1000 posts;[^\n]*\n(?:.*\n){2}\| \/news\/ \|/);
  });

  it('hold a signed-out /dashboard and /admin at ≤ 75 KB of JavaScript transferred (issue 23), missed just above', () => {
    const weight = (path: string, jsTransferredBytes: number) => ({
      path,
      status: 200,
      htmlBytes: 4_000,
      htmlGzipBytes: 1_500,
      jsFiles: 9,
      jsGzipBytes: 27_000,
      jsTransferredBytes,
    });
    const checks = (bytes: number) =>
      named(
        checkTargets(report([size(1000, 200 * MB, 0.5, { pages: [weight('/', 12_000), weight('/dashboard', bytes), weight('/admin', bytes)] })], null)),
        'JavaScript transferred',
      );
    expect(checks(75_000).map((check) => [check.name, check.actual, check.met])).toEqual([
      ['JavaScript transferred, signed-out /dashboard (1000 posts)', '75.0 KB', true],
      ['JavaScript transferred, signed-out /admin (1000 posts)', '75.0 KB', true],
    ]);
    expect(checks(75_001).map((check) => check.met)).toEqual([false, false]);
  });

  it('judge the mailing on the median of its rounds at ≥ 600 messages/s, and print every round', () => {
    const mailing = (rounds: number[], median: number) => ({ messages: 2000, messagesPerSec: median, secondsFromQueueToLast: 3.4, rounds });
    const check = (rounds: number[], median: number) => {
      const run = report([size(1000, 200 * MB, 0.5, { mailing: mailing(rounds, median) })], 'mailing');
      return { target: named(checkTargets(run), 'mailing')[0], printed: formatReport(run, checkTargets(run)) };
    };
    const steady = check([642, 600, 489], 600);
    expect([steady.target?.actual, steady.target?.met]).toEqual(['600 messages/s (rounds 489–642)', true]);
    expect(steady.printed).toMatch(/\| 2000 +\| 600 +\| 642, 600, 489 +\| 3\.4 s/);
    expect(check([700, 599, 520], 599).target?.met).toBe(false);
    // One round, as `--rounds 1` runs it: no spread to show.
    expect(check([611], 611).target?.actual).toBe('611 messages/s');
  });
});
