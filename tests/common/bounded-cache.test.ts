// The one bounded cache of pure answers (common/bounded-cache.ts) behind the hot paths' memos: the Accept-Encoding
// parse, semver's parsed versions, the markdown style filter, math's converted elements.
import { describe, expect, it, vi } from 'vitest';
import { createBoundedCache } from '../../common/bounded-cache.ts';

describe('createBoundedCache', () => {
  it('computes each key once, null answers included', () => {
    const cache = createBoundedCache<string, number | null>(10);
    const compute = vi.fn((key: string) => (key === 'none' ? null : key.length));
    expect([cache.get('abc', compute), cache.get('abc', compute), cache.get('none', compute), cache.get('none', compute)]).toEqual([3, 3, null, null]);
    expect(compute).toHaveBeenCalledTimes(2);
  });

  it('holds at most its limit: full, it starts again empty', () => {
    const cache = createBoundedCache<number, number>(2);
    const compute = vi.fn((key: number) => key * 2);
    for (const key of [1, 2, 3, 1, 3]) cache.get(key, compute);
    // 1 and 2 kept; 3 clears them; 1 is computed again beside 3; 3 is still kept.
    expect(compute.mock.calls.map(([key]) => key)).toEqual([1, 2, 3, 1]);
  });
});
