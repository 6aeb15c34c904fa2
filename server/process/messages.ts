// What the primary and the other serving processes say to each other over the cluster's IPC channel
// (docs/decisions/0022-one-process-model.md). Only coordination travels here: requests and answers go
// straight from the kernel to whichever process accepted the connection.
import type { BackgroundJob } from '../context.ts';
import type { ProcessMetrics } from '../ops/metrics.ts';

/** Primary → process, once after 'ready': which worker it is and the port to listen on (PORT may have been 0). */
export interface StartMessage {
  type: 'start';
  index: number;
  port: number;
}

/**
 * Primary → process: serve this build (`dir` null: none exists yet). `reload`: the build served already,
 * read again because its compressed forms now lie beside its files (the first build goes live before
 * they are made, server/serving.ts).
 */
export interface SiteLiveMessage {
  type: 'site-live';
  dir: string | null;
  generation: number;
  reload?: boolean;
}

/**
 * Primary → process. `metrics-request`: send your registry (server/ops/metrics-aggregate.ts);
 * `metrics-text`: the joined metrics this process asked for with `metrics-wanted` (null: they could not be made).
 */
export type MetricsPrimaryMessage = { type: 'metrics-request'; id: number } | { type: 'metrics-text'; id: number; text: string | null };

export type PrimaryMessage = StartMessage | SiteLiveMessage | MetricsPrimaryMessage;

/**
 * Process → primary. `ready`: can take messages; `site-loaded`: serves the build of that generation;
 * `listening`: accepts connections; `publish`: a write here needs a build (already recorded in the
 * database, see server/publish/shared-publisher.ts: this message only makes the primary look at once);
 * `wake`: work for that background job was committed here (in the database too: the primary's job only
 * looks at once, AppContext.wake).
 */
export type ProcessMessage =
  | { type: 'ready' }
  | { type: 'site-loaded'; generation: number }
  | { type: 'listening' }
  | { type: 'publish'; reason: string }
  | { type: 'wake'; job: BackgroundJob }
  | MetricsProcessMessage;

/** Process → primary. `metrics`: its registry, answering `metrics-request`; `metrics-wanted`: a scrape reached it, join everyone's. */
export type MetricsProcessMessage = { type: 'metrics'; id: number; metrics: ProcessMetrics } | { type: 'metrics-wanted'; id: number };
