// The app's router: Hono's own, with the match of each fixed route path kept once it is made. Hono's fast
// RegExpRouter refuses this API's route set (a literal beside a parameter at one position, such as
// `/api/license/update/:id` beside `/api/license/:licenseId/machines/:machineId`, paths clients are
// written against), so Hono falls back to its TrieRouter, which walks the tree and sorts the handlers
// it found on every request: about 4% of a licensing `validate` answer's time and a tenth of its
// allocations in a profile (docs/engineering.md#speed-notes). The answer for a fixed path (no parameter,
// no wildcard) never changes once the routes are in, so it is kept, as RegExpRouter keeps its own.
import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** The methods whose matches are kept: what browsers and the company's software send (bounded, unlike any method a client may name). */
const KEPT_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const isFixedPath = (path: string) => !path.includes(':') && !path.includes('*') && !path.includes('?');

export class FixedPathMatchCache<T> implements Router<T> {
  readonly name: string;
  readonly #inner: Router<T>;
  /** Every fixed path a route was added at: only their matches are kept, so the cache is as large as the route table at most. */
  readonly #fixedPaths = new Set<string>();
  readonly #matches = new Map<string, Result<T>>();

  constructor(inner: Router<T>) {
    this.#inner = inner;
    this.name = `${inner.name} with fixed paths kept`;
  }

  add(method: string, path: string, handler: T): void {
    this.#inner.add(method, path, handler);
    if (isFixedPath(path)) this.#fixedPaths.add(path);
    // A route added later can change what any path matches.
    this.#matches.clear();
  }

  match(method: string, path: string): Result<T> {
    if (!this.#fixedPaths.has(path) || !KEPT_METHODS.has(method)) return this.#inner.match(method, path);
    const key = `${method} ${path}`;
    let result = this.#matches.get(key);
    if (result === undefined) {
      result = this.#inner.match(method, path);
      this.#matches.set(key, result);
    }
    return result;
  }
}

/** Hono's default router (RegExpRouter where it can, TrieRouter otherwise) with fixed paths' matches kept. */
export function createRouteMatcher<T>(): Router<T> {
  return new FixedPathMatchCache(new SmartRouter<T>({ routers: [new RegExpRouter<T>(), new TrieRouter<T>()] }));
}
