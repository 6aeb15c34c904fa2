// The HTTP server of a serving process, the same in the primary (server/serving.ts) and in every other one
// (server/process/worker.ts): the configuration's limits and headers, the static site it is handed, and the
// health and metrics endpoints (docs/decisions/0022-one-process-model.md). Only what differs is passed in:
// the process's name in X-Served-By and how it joins the metrics.
import type http from 'node:http';
import type { Db } from '../db/client.ts';
import type { Config } from '../env.ts';
import type { Logger } from '../log.ts';
import { connectionCap } from '../http/connection-cap.ts';
import { strictTransportSecurity } from '../http/security-headers.ts';
import { createOpsEndpoints } from '../ops/endpoints.ts';
import { bucketProbeFor, createReadinessCheck } from '../ops/health.ts';
import { createHttpServer, type HttpServerOptions } from '../server.ts';
import type { ObjectStore } from '../storage/object-store/index.ts';

export interface ServingServerOptions extends Pick<HttpServerOptions, 'app' | 'getSite'> {
  config: Config;
  db: Db;
  /** Where stored files live: /media/ and the readiness check follow it (docs/decisions/0050-object-storage.md). */
  storage?: ObjectStore | undefined;
  log: Logger;
  /** This process in X-Served-By when SERVED_BY_HEADER is on ('main', 'worker-1', …). */
  processName: string;
  /** Every serving process's metrics joined, as /metrics answers them. */
  metrics: () => Promise<string>;
}

export function createServingServer({ config, db, storage, log, app, getSite, processName, metrics }: ServingServerOptions): http.Server {
  return createHttpServer({
    app,
    getSite,
    mediaDir: config.uploadsDir,
    storage,
    log,
    servedBy: config.servedByHeader ? processName : undefined,
    headersTimeoutMs: config.headersTimeoutMs,
    bodyTimeoutMs: config.bodyTimeoutMs,
    maxConnectionsPerClient: connectionCap(config),
    strictTransportSecurity: strictTransportSecurity(config),
    trustProxy: config.trustProxy,
    ops: createOpsEndpoints({
      ready: createReadinessCheck({ config, db, getSite, bucket: bucketProbeFor(storage) }),
      metrics,
      metricsToken: config.metricsToken,
      log,
    }),
  });
}
