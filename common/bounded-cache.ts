// Answers of a pure function kept by their key, for the hot paths that see the same few inputs over and over
// (a browser's Accept-Encoding, a version in an update feed, KaTeX's styles and elements). Bounded because the
// keys can come from outside (a client's header, a version it reports); cleared whole when full, which costs a
// few recomputations and no bookkeeping per read.

export interface BoundedCache<K, V> {
  /** The answer kept for `key`, or `compute(key)`, kept. `compute` must be pure and never answer undefined. */
  get(key: K, compute: (key: K) => V): V;
}

export function createBoundedCache<K, V extends NonNullable<unknown> | null>(limit: number): BoundedCache<K, V> {
  const kept = new Map<K, V>();
  return {
    get(key, compute) {
      let value = kept.get(key);
      if (value === undefined) {
        value = compute(key);
        if (kept.size >= limit) kept.clear();
        kept.set(key, value);
      }
      return value;
    },
  };
}
