// Shapes posts for clients (docs/product/data-model.md#post): the row with its section, attached file and author, and
// created_at_diff, a relative time computed when the answer is made. (Static pages compute theirs in the
// browser from created_at: a page built once must not freeze "3 days ago".)
import type { PostWithRelations } from './queries.ts';
import type { Section } from '../../db/schema.ts';

const UNITS: [unit: string, seconds: number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "3 days ago", "1 hour ago", "just now"; "from now" for a time in the future (a skewed clock). */
export function timeAgo(iso: string, nowMs: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((nowMs - then) / 1000);
  const magnitude = Math.abs(seconds);
  if (magnitude < 10) return 'just now';
  for (const [unit, size] of UNITS) {
    if (magnitude >= size) {
      const count = Math.floor(magnitude / size);
      return `${count} ${unit}${count === 1 ? '' : 's'} ${seconds >= 0 ? 'ago' : 'from now'}`;
    }
  }
  return 'just now';
}

export function presentPost(post: PostWithRelations, nowMs: number) {
  return { ...post, created_at_diff: timeAgo(post.created_at, nowMs) };
}

export type PresentedPost = ReturnType<typeof presentPost>;

export function presentSection(section: Section, postsCount?: number) {
  const { id, namespace, title, title_slug, order, created_at, updated_at } = section;
  return { id, namespace, title, title_slug, order, created_at, updated_at, ...(postsCount === undefined ? {} : { posts_count: postsCount }) };
}
