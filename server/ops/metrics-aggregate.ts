// One view of every serving process's metrics (docs/decisions/0031-observability.md). Each process keeps its
// own registry (metrics.ts); whichever process a scrape reaches asks the primary, which gathers the others'
// registries over the cluster's IPC channel (server/process/worker-pool.ts) and joins them with its own
// through prom-client's AggregatorRegistry.aggregate: counters and histograms add up, gauges join as each
// one says (`aggregator`).
import { AggregatorRegistry, prometheusContentType } from 'prom-client';
import { processMetrics, type ProcessMetrics } from './metrics.ts';

export const METRICS_CONTENT_TYPE = prometheusContentType;

/** This process's metrics joined with those of `others`, as Prometheus text. */
export async function aggregateMetrics(others: readonly ProcessMetrics[]): Promise<string> {
  const own = await processMetrics();
  return AggregatorRegistry.aggregate([own, ...others]).metrics();
}
