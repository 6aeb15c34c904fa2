// The bench reads its throughput figures from wrk's text output; a misread would print wrong ratios.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseWrkOutput, runWrk } from '../../bench/lib/load.ts';

const OUTPUT = `Running 5s test @ http://127.0.0.1:8088/news/
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     5.21ms    3.10ms  40.25ms   80.00%
    Req/Sec     6.65k   512.00     7.10k    70.00%
  Latency Distribution
     50%  850.00us
     75%    6.02ms
     90%    9.10ms
     99%    1.20s
  33230 requests in 5.00s, 7.31GB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 4
Requests/sec:   6646.12
Transfer/sec:      1.46GB
`;

describe('parseWrkOutput', () => {
  it('reads requests/s, the p50 and p99 latency in milliseconds whatever the unit, and every error', () => {
    expect(parseWrkOutput(OUTPUT)).toEqual({
      requestsPerSec: 6646.12,
      p50Ms: 0.85,
      p99Ms: 1200,
      requests: 33230,
      errors: 7,
      bytesRead: Math.round(7.31 * 1024 ** 3),
    });
  });

  it('counts no errors when wrk reports none', () => {
    const clean = OUTPUT.replace(/ {2}Socket errors.*\n/, '').replace(/ {2}Non-2xx.*\n/, '');
    expect(parseWrkOutput(clean).errors).toBe(0);
  });

  it('reads the bytes read in whichever binary unit wrk chose, so two servers are compared on the same bytes', () => {
    expect(parseWrkOutput(OUTPUT.replace('7.31GB read', '845.50KB read')).bytesRead).toBe(Math.round(845.5 * 1024));
    expect(parseWrkOutput(OUTPUT.replace('7.31GB read', '512.00B read')).bytesRead).toBe(512);
    expect(() => parseWrkOutput(OUTPUT.replace(', 7.31GB read', ''))).toThrow(/byte count/);
  });

  it('refuses output without a latency distribution rather than inventing figures', () => {
    expect(() => parseWrkOutput(OUTPUT.replace(/ {2}Latency Distribution[\s\S]*?99%.*\n/, ''))).toThrow(/latency distribution/);
  });
});

describe('runWrk with a POST body', () => {
  // A stand-in for wrk on PATH: it records the Lua script it was given and prints `OUTPUT` (or fails), so the
  // test sees where the script lived and whether it is gone once the run ends.
  let fakeDir: string;
  let savedPath: string | undefined;
  beforeEach(() => {
    fakeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-wrk-'));
    fs.writeFileSync(path.join(fakeDir, 'output.txt'), OUTPUT);
    fs.writeFileSync(
      path.join(fakeDir, 'wrk'),
      `#!/bin/sh\nwhile [ "$1" != "-s" ]; do shift; done\necho "$2" > "${fakeDir}/script-path"\ncat "$2" > "${fakeDir}/script-body"\n[ -f "${fakeDir}/fail" ] && exit 1\ncat "${fakeDir}/output.txt"\n`,
      { mode: 0o755 },
    );
    savedPath = process.env.PATH;
    process.env.PATH = `${fakeDir}:${savedPath ?? ''}`;
  });
  afterEach(() => {
    process.env.PATH = savedPath;
    fs.rmSync(fakeDir, { recursive: true, force: true });
  });
  const scriptOfTheRun = () => fs.readFileSync(path.join(fakeDir, 'script-path'), 'utf8').trim();

  it('gives wrk the body in a script and removes the script once wrk has ended', async () => {
    const result = await runWrk({ url: 'http://127.0.0.1:9/api', seconds: 1, connections: 1, postBody: '{"key":"K"}' });
    expect(result.requestsPerSec).toBe(6646.12);
    expect(fs.readFileSync(path.join(fakeDir, 'script-body'), 'utf8')).toBe('wrk.method = "POST"\nwrk.body = [==[{"key":"K"}]==]\n');
    expect(fs.existsSync(path.dirname(scriptOfTheRun()))).toBe(false);
  });

  it('removes the script when wrk fails too', async () => {
    fs.writeFileSync(path.join(fakeDir, 'fail'), '');
    await expect(runWrk({ url: 'http://127.0.0.1:9/api', seconds: 1, connections: 1, postBody: '{}' })).rejects.toThrow(/wrk exited with 1/);
    expect(fs.existsSync(path.dirname(scriptOfTheRun()))).toBe(false);
  });
});
