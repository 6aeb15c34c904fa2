// The operator's endpoints, answered by every serving process on the raw fast path (server/server.ts)
// before the static site and the Hono app: no session, no rate limit, no access-log line, never cached
// (README, Operations; docs/decisions/0031-observability.md).
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log.ts';
import { sendBody, sendJson, sendNotFound, sendPlain } from '../static/respond.ts';
import type { Readiness } from './health.ts';
import { METRICS_CONTENT_TYPE } from './metrics-aggregate.ts';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const METRICS_PATH = '/metrics';

export interface OpsEndpointsOptions {
  ready: () => Readiness;
  /** Every serving process's metrics joined, as Prometheus text (server/ops/metrics-aggregate.ts). */
  metrics: () => Promise<string>;
  /** METRICS_TOKEN: with it, /metrics answers any address that sends it as a bearer token. */
  metricsToken: string | undefined;
  log?: Logger;
}

/** Answers the request when its path is one of ours (true), else leaves it alone (false). */
export type OpsEndpoints = (req: IncomingMessage, res: ServerResponse, path: string, head: boolean) => boolean;

const ALIVE = { status: 'ok' };

/** The paths these endpoints answer: the listener looks nothing else up for them (server/server.ts). */
export function isOpsPath(path: string): boolean {
  return path === HEALTH_PATH || path === READY_PATH || path === METRICS_PATH;
}

export function createOpsEndpoints(options: OpsEndpointsOptions): OpsEndpoints {
  return (req, res, path, head) => {
    if (path === HEALTH_PATH) {
      sendJson(res, 200, ALIVE, head);
      return true;
    }
    if (path === READY_PATH) {
      const readiness = options.ready();
      const body = readiness.ready
        ? { status: 'ready', checks: readiness.checks }
        : { status: 'not ready', failed: readiness.failed, checks: readiness.checks };
      sendJson(res, readiness.ready ? 200 : 503, body, head);
      return true;
    }
    if (path === METRICS_PATH) {
      // Like any unknown path to whoever may not scrape: nothing says metrics exist here.
      if (!isLoopbackPeer(req) && !hasToken(req, options.metricsToken)) {
        sendNotFound(res, head);
        return true;
      }
      options.metrics().then(
        (text) => sendBody(res, 200, METRICS_CONTENT_TYPE, Buffer.from(text), head),
        (error: unknown) => {
          options.log?.error('metrics could not be collected', error);
          if (!res.headersSent) sendPlain(res, 503, 'Metrics are not available right now.\n', head);
        },
      );
      return true;
    }
    return false;
  };
}

/**
 * A scraper on this machine: the socket's peer is a loopback address (never a forwarded header), and the
 * request did not come through a proxy. A reverse proxy on this machine connects from loopback too, so a
 * request carrying X-Forwarded-For is someone else's, relayed (docs/decisions/0031-observability.md).
 */
function isLoopbackPeer(req: IncomingMessage): boolean {
  const address = req.socket.remoteAddress ?? '';
  const loopback = address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
  return loopback && req.headers['x-forwarded-for'] === undefined;
}

function hasToken(req: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return false;
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Bearer ')) return false;
  const given = crypto.createHash('sha256').update(header.slice('Bearer '.length).trim()).digest();
  // Hashes of equal length, so the comparison takes the same time whatever was sent.
  return crypto.timingSafeEqual(given, crypto.createHash('sha256').update(token).digest());
}
