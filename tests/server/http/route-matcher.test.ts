// The app's router keeps the match of each fixed route path (server/http/route-matcher.ts): the same
// handlers as Hono's own router, asked of the inner router once per fixed path and method, never kept for
// other paths (a client could send any number of them), and forgotten when a route is added.
import { Hono } from 'hono';
import type { Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { createRouteMatcher, FixedPathMatchCache } from '../../../server/http/route-matcher.ts';
import { createTestContext } from '../../helpers/test-context.ts';

/** A TrieRouter that counts the matches it was asked for. */
class CountingRouter<T> implements Router<T> {
  readonly name = 'counting';
  readonly inner = new TrieRouter<T>();
  asked = 0;
  add(method: string, path: string, handler: T): void {
    this.inner.add(method, path, handler);
  }
  match(method: string, path: string): Result<T> {
    this.asked++;
    return this.inner.match(method, path);
  }
}

const handlersOf = <T>(result: Result<T>) => result[0].map(([handler]) => handler);

describe('the route matcher', () => {
  it('asks its router once per fixed path and method, and every time for paths with parameters and unknown paths', () => {
    const counting = new CountingRouter<string>();
    const router = new FixedPathMatchCache(counting);
    router.add('ALL', '/api/*', 'api middleware');
    router.add('POST', '/api/licensing/v1/validate', 'validate');
    router.add('GET', '/api/news/getPosts/byslug/:slug', 'byslug');

    const first = router.match('POST', '/api/licensing/v1/validate');
    expect(handlersOf(first)).toEqual(['api middleware', 'validate']);
    expect(router.match('POST', '/api/licensing/v1/validate')).toBe(first);
    expect(counting.asked).toBe(1);
    // Another method at the same path is its own match.
    expect(handlersOf(router.match('GET', '/api/licensing/v1/validate'))).toEqual(['api middleware']);
    expect(counting.asked).toBe(2);

    router.match('GET', '/api/news/getPosts/byslug/events');
    router.match('GET', '/api/news/getPosts/byslug/events');
    router.match('GET', '/api/no-such-path');
    router.match('GET', '/api/no-such-path');
    router.match('BREW', '/api/licensing/v1/validate');
    router.match('BREW', '/api/licensing/v1/validate');
    expect(counting.asked).toBe(8);
    expect(router.match('GET', '/api/news/getPosts/byslug/events')[0][1]?.[1]).toEqual({ slug: 'events' });
  });

  it('forgets what it kept when a route is added', () => {
    const router = new FixedPathMatchCache(new TrieRouter<string>());
    router.add('GET', '/api/user', 'user');
    expect(handlersOf(router.match('GET', '/api/user'))).toEqual(['user']);
    router.add('ALL', '*', 'everywhere');
    expect(handlersOf(router.match('GET', '/api/user'))).toEqual(['user', 'everywhere']);
  });

  it("answers the product's routes as Hono's default router does", async () => {
    const ctx = createTestContext();
    try {
      const plain = new Hono();
      const kept = new Hono({ router: createRouteMatcher() });
      for (const route of ctx.app.routes) {
        plain.on(route.method, route.path, route.handler);
        kept.on(route.method, route.path, route.handler);
      }
      const cases: [string, string][] = [
        ['GET', '/api/user'],
        ['POST', '/api/licensing/v1/validate'],
        ['GET', '/api/news/getPosts/byslug/events'],
        ['PUT', '/api/license/update/7'],
        ['DELETE', '/api/license/7/machines/3'],
        ['GET', '/api/updates/v1/latest'],
        ['GET', '/no/such/page'],
      ];
      for (const [method, path] of cases) {
        for (let round = 0; round < 2; round++) {
          expect(handlersOf(kept.router.match(method, path)), `${method} ${path}`).toEqual(handlersOf(plain.router.match(method, path)));
        }
      }
    } finally {
      ctx.cleanup();
    }
  });
});
