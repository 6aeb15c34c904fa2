// Ordering and routing rules of the posts screens (docs/product/reading.md#posts-screens), kept out of the pages so they are
// testable without Astro.
import type { PostEntry, SectionEntry } from '../../common/snapshot-schema.ts';
import type { Namespace } from '../../common/snapshot-types.ts';

export const NAMESPACE_TITLES: Record<Namespace, string> = {
  news: 'News',
  documentation: 'Documentation',
  tutorials: 'Tutorials',
};

const byOrderThenId = (orderOf: (item: { id: number }) => number) => (a: { id: number }, b: { id: number }) => orderOf(a) - orderOf(b) || a.id - b.id;

/** Sections ascending by order, their posts ascending by display order (ids break ties). */
export function sortSections(sections: readonly SectionEntry[]): SectionEntry[] {
  return [...sections]
    .sort(byOrderThenId((section) => (section as SectionEntry).order))
    .map((section) => ({ ...section, posts: [...section.posts].sort(byOrderThenId((post) => (post as PostEntry).display_order)) }));
}

/**
 * The sidebar's post list: in the order of the articles beside it, news too. News once listed them reversed,
 * so the sidebar's first entry was the page's last article (issue 28, 2.10).
 */
export function sidebarPosts<Entry>(_namespace: Namespace, posts: readonly Entry[]): Entry[] {
  return [...posts];
}

export interface PostsRoute {
  params: { section: string | undefined };
  props: { namespace: Namespace; sectionSlug: string | undefined };
  /** Astro's incremental build re-renders the page only when this changes (see page-cache-key.ts). */
  cacheKey?: string;
}

/**
 * One page for the namespace (showing its first section) and one per section. With a cacheKey, a publish
 * that changed nothing the pages show copies them from the previous build instead of rendering them.
 */
export function postsRoutes(namespace: Namespace, sections: readonly SectionEntry[], cacheKey?: string): PostsRoute[] {
  const key = cacheKey === undefined ? {} : { cacheKey };
  return [
    { params: { section: undefined }, props: { namespace, sectionSlug: undefined }, ...key },
    ...sections.map((section) => ({ params: { section: section.title_slug }, props: { namespace, sectionSlug: section.title_slug }, ...key })),
  ];
}

export function sectionPath(namespace: Namespace, section: SectionEntry): string {
  return `/${namespace}/${section.title_slug}`;
}
