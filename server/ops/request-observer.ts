// One middleware in front of the whole Hono app (server/app.ts) that observes every request it answers
// (docs/decisions/0031-observability.md): the request id every log line of the request carries, the HTTP
// metrics by route pattern and status, the login outcomes, and the one access-log line per request.
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { AppContext, AppEnv } from '../context.ts';
import { clientIp } from '../http/client-ip.ts';
import { httpDuration, httpRequests, logins } from './metrics.ts';
import { REQUEST_ID_HEADER, requestContext, requestIdFor } from './request-context.ts';
import { routePattern } from './route-pattern.ts';

/** Methods named as they are in labels; anything else (a client may send any token) is 'OTHER'. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The password login (server/features/sessions/routes.ts), whose answers are the login outcomes. */
const LOGIN_ROUTE = '/api/auth/login';

/** ok: signed in (or on to a second step); throttled: 429; failed: wrong credentials, bot check, suspended. */
function loginOutcome(status: number): 'ok' | 'failed' | 'throttled' | null {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 429) return 'throttled';
  if (status === 401 || status === 403 || status === 422) return 'failed';
  // 400/413/419/5xx: no credentials were judged.
  return null;
}

export function observeRequests(ctx: AppContext): MiddlewareHandler<AppEnv> {
  const observe = async (c: Context<AppEnv>, next: Next) => {
    const started = performance.now();
    await next();
    const durationMs = performance.now() - started;
    const method = METHODS.has(c.req.method) ? c.req.method : 'OTHER';
    const route = routePattern(c);
    const status = c.res.status;
    const labels = { method, route, status: String(status) };
    httpRequests.inc(labels);
    httpDuration.observe(labels, durationMs / 1000);
    if (route === LOGIN_ROUTE && method === 'POST') {
      const outcome = loginOutcome(status);
      if (outcome) logins.inc({ outcome });
    }
    // The access log: the route pattern, never the raw path or query (ids, tokens and links live there).
    const rounded = Math.round(durationMs * 10) / 10;
    ctx.log.info(`${method} ${route} ${status} ${rounded} ms`, {
      method,
      route,
      status,
      duration_ms: rounded,
      user_id: c.get('user')?.id ?? null,
      // A machine's calls (/api/v1/) name the API token by its id, never the token (docs/integrations.md#api-tokens).
      ...(c.get('apiToken') ? { api_token_id: c.get('apiToken')?.id } : {}),
      client: clientIp(c, ctx.config),
    });
  };
  return (c, next) => {
    // Requests through the listener (server/server.ts) already run in their context; app.request() does not.
    if (requestContext.getStore()) return observe(c, next);
    const requestId = requestIdFor(c.req.header(REQUEST_ID_HEADER), ctx.config.trustProxy);
    c.header(REQUEST_ID_HEADER, requestId);
    return requestContext.run({ requestId }, () => observe(c, next));
  };
}
