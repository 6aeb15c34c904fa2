// The bench reads its throughput figures from wrk's text output; a misread would print wrong ratios.
import { describe, expect, it } from 'vitest';
import { parseWrkOutput } from '../../bench/lib/load.ts';

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
    expect(parseWrkOutput(OUTPUT)).toEqual({ requestsPerSec: 6646.12, p50Ms: 0.85, p99Ms: 1200, requests: 33230, errors: 7 });
  });

  it('counts no errors when wrk reports none', () => {
    const clean = OUTPUT.replace(/ {2}Socket errors.*\n/, '').replace(/ {2}Non-2xx.*\n/, '');
    expect(parseWrkOutput(clean).errors).toBe(0);
  });

  it('refuses output without a latency distribution rather than inventing figures', () => {
    expect(() => parseWrkOutput(OUTPUT.replace(/ {2}Latency Distribution[\s\S]*?99%.*\n/, ''))).toThrow(/latency distribution/);
  });
});
