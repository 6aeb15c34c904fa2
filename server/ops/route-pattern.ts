// The route a request matched, as registered (`/api/admin/users/:id`), never the raw path: metric labels
// and access-log lines must not grow with every id or token in a URL (docs/decisions/0031-observability.md).
import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import { UNMATCHED_ROUTE } from './metrics.ts';

/**
 * The last route of a handler (a method of its own) that matched. Middleware registered with `use` has
 * method 'ALL' and a wildcard path, and is skipped: a request that reaches only middleware (an unknown
 * path, the not-found handler) is UNMATCHED_ROUTE. A route's own middleware (`post('/login', guard, …)`)
 * carries the route's path, so an answer from a guard is labelled with the route it guards.
 */
export function routePattern(c: Context): string {
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) {
    const route = routes[i];
    if (route && route.method !== 'ALL') return route.path;
  }
  return UNMATCHED_ROUTE;
}
