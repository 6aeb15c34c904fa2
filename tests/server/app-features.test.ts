// app.ts mounts features, and every path belongs to exactly one of them (docs/architecture.md#where-things-are):
// no method and path is answered by two features, so the order of the mounts decides nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FEATURES } from '../../server/app.ts';
import { createTestContext, type TestContext } from '../helpers/test-context.ts';

let ctx: TestContext;
beforeEach(() => {
  ctx = createTestContext();
});
afterEach(() => ctx.cleanup());

describe('the features of the API', () => {
  it('answer disjoint paths', () => {
    const owner = new Map<string, string>();
    const shared: string[] = [];
    for (const feature of FEATURES) {
      const routes = new Set(
        feature(ctx)
          .routes.filter((route) => route.method !== 'ALL')
          .map((route) => `${route.method} ${route.path}`),
      );
      for (const route of routes) {
        const first = owner.get(route);
        if (first) shared.push(`${route}: ${first} and ${feature.name}`);
        else owner.set(route, feature.name);
      }
    }
    expect(owner.size).toBeGreaterThan(100);
    expect(shared).toEqual([]);
  });
});
