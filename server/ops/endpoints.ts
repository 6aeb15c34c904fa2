// The operator's endpoints, answered by every serving process on the raw fast path (server/server.ts)
// before the static site and the Hono app: no session, no rate limit, no access-log line, never cached
// (README, Operations; docs/decisions/0031-observability.md).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../static/respond.ts';
import type { Readiness } from './health.ts';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

export interface OpsEndpointsOptions {
  ready: () => Readiness;
}

/** Answers the request when its path is one of ours (true), else leaves it alone (false). */
export type OpsEndpoints = (req: IncomingMessage, res: ServerResponse, path: string, head: boolean) => boolean;

const ALIVE = { status: 'ok' };

export function createOpsEndpoints(options: OpsEndpointsOptions): OpsEndpoints {
  return (_req, res, path, head) => {
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
    return false;
  };
}
