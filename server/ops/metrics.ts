// The Prometheus metrics of this process (docs/decisions/0031-observability.md): one registry per serving
// process, filled where things happen, and joined into one view by the primary (metrics-aggregate.ts).
// Every counter sums across processes; gauges say how they join (`aggregator`). Names are ours
// (`site_…`) except the HTTP ones and prom-client's default process metrics.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const registers = [registry];

/** Route label of a request no route matched (an unknown path is never a label: it would grow without bound). */
export const UNMATCHED_ROUTE = 'unmatched';

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'Requests answered by the API app, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  registers,
});

export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from the request reaching the API app to its answer, by method, route pattern and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

/**
 * The static fast path's answers (server/server.ts). Counted as plain numbers there (no label lookup, no
 * allocation on the hottest path) and copied into the counter when metrics are read.
 */
export const staticCounts = { page: 0, media: 0, not_found: 0, building: 0 };
new Counter({
  name: 'site_static_responses_total',
  help: 'Answers of the static fast path: page (a file of the live build, 304s included), media, not_found, building (no build yet).',
  labelNames: ['result'] as const,
  registers,
  collect() {
    this.reset();
    for (const [result, count] of Object.entries(staticCounts)) this.inc({ result }, count);
  },
});

export const publishDuration = new Histogram({
  name: 'site_publish_duration_seconds',
  help: 'Publishes from the start of the build to the live switch (or the failure), by outcome (ok, failed).',
  labelNames: ['outcome'] as const,
  buckets: [0.5, 1, 2, 3, 5, 8, 13, 20, 30, 60, 120, 300],
  registers,
});

export const publishFailures = new Counter({ name: 'site_publish_failures_total', help: 'Publishes that failed (the live site was kept).', registers });

export const buildPeakRss = new Gauge({
  name: 'site_publish_build_peak_rss_bytes',
  help: "Peak resident memory of the Astro build process during the last publish's Astro build (on Linux; elsewhere its peak including its warm-up).",
  aggregator: 'max',
  registers,
});

export const mailSendFailures = new Counter({
  name: 'site_mail_send_failures_total',
  help: 'Mails the server could not send, by kind (message: a single mail such as a reset link; mailing: one recipient of a mailing, every failed attempt).',
  labelNames: ['kind'] as const,
  registers,
});

let mailQueueDepth: (() => number) | null = null;
new Gauge({
  name: 'site_mail_queue_depth',
  help: 'Mailing recipients still to be sent (pending), read from the database by the process that sends them.',
  registers,
  collect() {
    if (mailQueueDepth) this.set(mailQueueDepth());
  },
});

/** The primary, which sends mailings, reports the queue (other processes report 0, so the sum is right). */
export function reportMailQueueDepth(read: () => number): void {
  mailQueueDepth = read;
}

export const logins = new Counter({
  name: 'site_logins_total',
  help: 'Password logins by outcome: ok, failed (wrong credentials, bot check, suspended), throttled (429).',
  labelNames: ['outcome'] as const,
  registers,
});

export const botcheckRefusals = new Counter({
  name: 'site_botcheck_refusals_total',
  help: 'Bot-check tokens refused, by reason: invalid (missing, forged, spent, expired, unsolved) or throttled.',
  labelNames: ['reason'] as const,
  registers,
});

export const storageErrors = new Counter({
  name: 'site_storage_errors_total',
  help: 'Calls to the object storage bucket that failed, by operation: put, head, read, delete, list, presign, marker (docs/decisions/0050-object-storage.md).',
  labelNames: ['operation'] as const,
  registers,
});

export const presignedLinks = new Counter({
  name: 'site_storage_presigned_links_total',
  help: "Presigned GET links of the bucket handed out after the site's own checks (docs/decisions/0050-object-storage.md).",
  registers,
});

export type ProcessMetrics = MetricObjectWithValues<MetricValue<string>>[];

/** This process's metrics as plain data, to send to the primary over IPC. */
export function processMetrics(): Promise<ProcessMetrics> {
  return registry.getMetricsAsJSON();
}
