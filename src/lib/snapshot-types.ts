// The JSON snapshot the publish pipeline exports from the database (server/publish/export-snapshot.ts)
// and the Astro build reads (src/lib/snapshot.ts). It holds published content only: unpublished posts
// never reach it, so they can never reach static HTML. Bodies stay markdown; the build renders them.

export type Namespace = 'news' | 'documentation' | 'tutorials';
export const NAMESPACE_LIST: readonly Namespace[] = ['news', 'documentation', 'tutorials'];

export interface ImageVariantSize {
  width: number;
  height: number;
}

export interface HomeImageEntry {
  id: number;
  title: string;
  alt: string;
  /** URL per variant, e.g. { thumb: '/media/…', lg: '/media/…' }. */
  urls: Record<string, string>;
  sizes: Record<string, ImageVariantSize>;
}

export interface HomeSectionEntry {
  id: number;
  title: string;
  body: string;
  order: number;
  updated_at: string;
  images: HomeImageEntry[];
}

export interface AttachedFileEntry {
  id: number;
  filename: string;
  description: string;
  size: number;
}

export interface PostEntry {
  id: number;
  title: string;
  title_slug: string;
  body: string;
  display_order: number;
  created_at: string;
  updated_at: string;
  author: { name: string; role: string } | null;
  file: AttachedFileEntry | null;
}

export interface SectionEntry {
  id: number;
  title: string;
  title_slug: string;
  order: number;
  updated_at: string;
  /** Published posts only, ascending by display_order then id. */
  posts: PostEntry[];
}

export interface DownloadEntry {
  id: number;
  title: string;
  body: string;
  release: string;
  is_current: boolean;
  downloadable: boolean;
  filename: string | null;
  size: number;
  sha256: string;
  created_at: string;
  updated_at: string;
}

export interface SiteSnapshot {
  generated_at: string;
  site: { name: string; url: string };
  /** Ascending by order. */
  home: HomeSectionEntry[];
  /** Sections ascending by order, per namespace. */
  namespaces: Record<Namespace, SectionEntry[]>;
  /** Current release first, then newest first. */
  downloads: DownloadEntry[];
}

/** File name of the snapshot inside the content directory. */
export const SNAPSHOT_FILE = 'site.json';
