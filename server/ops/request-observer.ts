// One middleware in front of the whole Hono app (server/app.ts) that observes every request it answers:
// the HTTP metrics by route pattern and status, and the login outcomes (docs/decisions/0031-observability.md).
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.ts';
import { httpDuration, httpRequests, logins } from './metrics.ts';
import { routePattern } from './route-pattern.ts';

/** Methods named as they are in labels; anything else (a client may send any token) is 'OTHER'. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The password login (server/features/accounts/auth.ts), whose answers are the login outcomes. */
const LOGIN_ROUTE = '/api/auth/login';

/** ok: signed in (or on to a second step); throttled: 429; failed: wrong credentials, bot check, suspended. */
function loginOutcome(status: number): 'ok' | 'failed' | 'throttled' | null {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 429) return 'throttled';
  if (status === 401 || status === 403 || status === 422) return 'failed';
  // 400/413/419/5xx: no credentials were judged.
  return null;
}

export function observeRequests(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const seconds = (performance.now() - started) / 1000;
    const method = METHODS.has(c.req.method) ? c.req.method : 'OTHER';
    const route = routePattern(c);
    const status = c.res.status;
    const labels = { method, route, status: String(status) };
    httpRequests.inc(labels);
    httpDuration.observe(labels, seconds);
    if (route === LOGIN_ROUTE && method === 'POST') {
      const outcome = loginOutcome(status);
      if (outcome) logins.inc({ outcome });
    }
  };
}
