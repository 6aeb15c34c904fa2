// Reads the Prometheus text format strictly enough to catch a malformed line: every sample line must be
// `name{label="value",…} number`, every metric must have HELP and TYPE lines before its samples. prom-client
// writes NaN as `Nan`, which Prometheus reads too (Go's ParseFloat ignores the case).
import { expect } from 'vitest';

export type Samples = Map<string, number>;

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|NaN|Nan|\+Inf|-Inf))$/;

/** Parses the text into `name{labels}` → value (labels as written, sorted by the exporter); fails the test on a bad line. */
export function parsePrometheus(text: string): Samples {
  const samples: Samples = new Map();
  const typed = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.+)$/.exec(line);
    if (comment) {
      if (comment[1] === 'TYPE') {
        expect(['counter', 'gauge', 'histogram', 'summary', 'untyped']).toContain(comment[3]);
        typed.add(comment[2] ?? '');
      }
      continue;
    }
    const sample = SAMPLE.exec(line);
    expect(sample, `not a Prometheus sample line: ${line}`).not.toBeNull();
    const name = sample?.[1] ?? '';
    const family = name.replace(/_(bucket|sum|count|total)$/, '');
    expect(typed.has(name) || typed.has(family) || typed.has(`${family}_total`), `no TYPE line before ${name}`).toBe(true);
    samples.set(`${name}${sample?.[2] ?? ''}`, Number(sample?.[3]));
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include `labels` (0 when none: a labelled counter has no line until first counted). */
export function sample(samples: Samples, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const [key, value] of samples) {
    const match = /^([^{]+)(?:\{(.*)\})?$/.exec(key);
    if (match?.[1] !== name) continue;
    const present = new Map([...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([label, wanted]) => present.get(label) === wanted)) total += value;
  }
  return total;
}
