// `npm run bench` fails (exit 1) when a target is missed: issue 15's peak memory of a publish at 1,000 and
// 5,000 posts, and its save → live no slower than before (2.1 s and 4.3 s), must be checked, and
// `--only publish` must not fail for the serving figures it never measured.
import { describe, expect, it } from 'vitest';
import { checkTargets, type BenchReport, type SizeResult } from '../../bench/lib/report.ts';

const MB = 1024 * 1024;

function size(posts: number, peakBuildBytes: number, seconds = 2): SizeResult {
  return {
    posts,
    users: 10,
    coldBuildSeconds: 10,
    coldBuildPeakBytes: peakBuildBytes,
    idleServerBytes: 200 * MB,
    readyBuildProcessBytes: 220 * MB,
    pages: [],
    staticServing: null,
    api: null,
    licensing: null,
    logins: null,
    publish: { seconds, peakBuildBytes, buildMs: 1900, rightBehindSeconds: 2.6, rightBehindPeakBytes: peakBuildBytes },
    mailing: null,
  };
}

function report(sizes: SizeResult[], only: string | null): BenchReport {
  return {
    at: '2026-11-25T00:00:00.000Z',
    machine: { cpus: 2, cpuModel: 'test', memoryBytes: 8 * 1024 * MB, node: 'v24' },
    settings: { seconds: 1, rounds: 1, connections: 1, users: 10, mail: 1, only },
    references: { wrk: false, nginx: false, chromium: false },
    sizes,
  };
}

const memoryChecks = (checks: ReturnType<typeof checkTargets>) => checks.filter((check) => check.name.startsWith('peak memory of a publish'));
const timeChecks = (checks: ReturnType<typeof checkTargets>) => checks.filter((check) => check.name.startsWith('save → live, no slower'));

describe('the bench memory targets', () => {
  it('are met at ≤ 400 MB for 1,000 posts and ≤ 600 MB for 5,000', () => {
    const checks = memoryChecks(checkTargets(report([size(1000, 399 * MB), size(5000, 600 * MB)], 'publish')));
    expect(checks.map((check) => [check.name, check.met])).toEqual([
      ['peak memory of a publish (1000 posts)', true],
      ['peak memory of a publish (5000 posts)', true],
    ]);
  });

  it('are missed just above either limit, which fails the run', () => {
    const checks = checkTargets(report([size(1000, 401 * MB), size(5000, 601 * MB)], 'publish'));
    expect(memoryChecks(checks).map((check) => check.met)).toEqual([false, false]);
    expect(memoryChecks(checks)[0]?.actual).toBe('401 MB');
  });

  it('with --only publish, skip the serving targets instead of reporting them missed; a full run reports them', () => {
    expect(checkTargets(report([size(1000, 300 * MB)], 'publish')).every((check) => check.met)).toBe(true);
    expect(checkTargets(report([size(1000, 300 * MB)], null)).some((check) => check.actual.startsWith('NOT MEASURED'))).toBe(true);
  });

  it('check save → live at ≤ 2.1 s for 1,000 posts and ≤ 4.3 s for 5,000, missed just above', () => {
    const met = timeChecks(checkTargets(report([size(1000, 300 * MB, 2.1), size(5000, 500 * MB, 4.3)], 'publish')));
    expect(met.map((check) => [check.name, check.met])).toEqual([
      ['save → live, no slower than before lean publishing (1000 posts)', true],
      ['save → live, no slower than before lean publishing (5000 posts)', true],
    ]);
    const missed = timeChecks(checkTargets(report([size(1000, 300 * MB, 2.11), size(5000, 500 * MB, 4.31)], 'publish')));
    expect(missed.map((check) => [check.actual, check.met])).toEqual([
      ['2.11 s', false],
      ['4.31 s', false],
    ]);
  });
});
