// The content snapshot: the JSON the publish pipeline exports from the database
// (server/publish/export-snapshot.ts) and the Astro build reads (src/lib/snapshot.ts). This schema is its
// one description: the exporter parses what it built before writing it, the build parses what it reads,
// and the types below are inferred from it, so the two sides cannot drift apart.
// It holds published content only (docs/architecture.md, Publishing): unpublished posts never reach it,
// so they can never reach static HTML. Bodies stay markdown; the build renders them.
// Browser-safe (zod only), but it pulls zod into any bundle that imports a value from it: code that only
// needs the namespace list imports snapshot-types.ts instead.
import { z } from 'zod';
import { NAMESPACE_LIST } from './snapshot-types.ts';

const id = z.int().positive();
/** What the database writes: `strftime('%Y-%m-%dT%H:%M:%fZ')` or `toISOString()`; pages and feeds parse it. */
const timestamp = z.iso.datetime();
const slug = z.string().min(1);

/** One image variant's URL, e.g. '/media/home/…-thumb.webp'. */
export const imageUrlSchema = z.string().min(1);
export const imageVariantSizeSchema = z.object({ width: z.number().positive(), height: z.number().positive() });

export const homeImageEntrySchema = z.object({
  id,
  title: z.string(),
  alt: z.string(),
  /** URL per variant, e.g. { thumb: '/media/…', lg: '/media/…' }. */
  urls: z.record(z.string(), imageUrlSchema),
  sizes: z.record(z.string(), imageVariantSizeSchema),
});

export const homeSectionEntrySchema = z.object({
  id,
  title: z.string(),
  body: z.string(),
  order: z.int(),
  updated_at: timestamp,
  images: z.array(homeImageEntrySchema),
});

export const attachedFileEntrySchema = z.object({
  id,
  filename: z.string(),
  description: z.string(),
  size: z.int().nonnegative(),
});

export const postEntrySchema = z.object({
  id,
  title: z.string(),
  title_slug: slug,
  body: z.string(),
  display_order: z.int(),
  created_at: timestamp,
  updated_at: timestamp,
  author: z.object({ name: z.string(), role: z.string() }).nullable(),
  file: attachedFileEntrySchema.nullable(),
});

export const sectionEntrySchema = z.object({
  id,
  title: z.string(),
  title_slug: slug,
  order: z.int(),
  updated_at: timestamp,
  /** Published posts only, ascending by display_order then id. */
  posts: z.array(postEntrySchema),
});

/** One file of a release (issue 25); `url` is the gated link, which the server checks at each request. */
export const downloadFileEntrySchema = z.object({
  id,
  name: z.string(),
  size: z.int().nonnegative(),
  sha256: z.string(),
  sha512: z.string().nullable(),
  platform: z.enum(['windows', 'macos', 'linux', 'any']),
  arch: z.enum(['x64', 'arm64', 'universal']),
  url: z.string(),
});

export const downloadEntrySchema = z.object({
  id,
  title: z.string(),
  body: z.string(),
  release: z.string(),
  is_current: z.boolean(),
  downloadable: z.boolean(),
  /** The first file's name, size and hash (null, 0 and '' without files). */
  filename: z.string().nullable(),
  size: z.int().nonnegative(),
  sha256: z.string(),
  /** Issue 25: semver, or null (not in the update feeds). */
  version: z.string().nullable(),
  channel: z.enum(['stable', 'beta']),
  released_at: timestamp,
  /** The entitlement a license needs to download it, or null. */
  entitlement: z.string().nullable(),
  /** Oldest first; files[0] is the first file. */
  files: z.array(downloadFileEntrySchema),
  created_at: timestamp,
  updated_at: timestamp,
});

/** The legal pages (issue 28, section 1): /privacy, /terms, /imprint, markdown like posts. */
export const legalPageEntrySchema = z.object({
  slug: z.enum(['privacy', 'terms', 'imprint']),
  title: z.string(),
  body: z.string(),
  updated_at: timestamp,
});

/** The contact details on /contact (issue 28, section 1); an empty one is not shown. */
export const contactDetailsEntrySchema = z.object({ address: z.string(), email: z.string(), phone: z.string() });

export const siteSnapshotSchema = z.object({
  generated_at: timestamp,
  site: z.object({ name: z.string(), url: z.url() }),
  /** Ascending by order. */
  home: z.array(homeSectionEntrySchema),
  /** Sections ascending by order, for every namespace. */
  namespaces: z.record(z.enum(NAMESPACE_LIST), z.array(sectionEntrySchema)),
  /** Current release first, then newest first. */
  downloads: z.array(downloadEntrySchema),
  legal_pages: z.array(legalPageEntrySchema),
  contact: contactDetailsEntrySchema,
});

export type ImageVariantSize = z.infer<typeof imageVariantSizeSchema>;
export type HomeImageEntry = z.infer<typeof homeImageEntrySchema>;
export type HomeSectionEntry = z.infer<typeof homeSectionEntrySchema>;
export type AttachedFileEntry = z.infer<typeof attachedFileEntrySchema>;
export type PostEntry = z.infer<typeof postEntrySchema>;
export type SectionEntry = z.infer<typeof sectionEntrySchema>;
export type DownloadEntry = z.infer<typeof downloadEntrySchema>;
export type DownloadFileEntry = z.infer<typeof downloadFileEntrySchema>;
export type LegalPageEntry = z.infer<typeof legalPageEntrySchema>;
export type ContactDetailsEntry = z.infer<typeof contactDetailsEntrySchema>;
export type SiteSnapshot = z.infer<typeof siteSnapshotSchema>;

/** How many problems an error message lists before "and N more". */
const MAX_LISTED_ISSUES = 5;

/**
 * `data` as a snapshot, or an error naming `source` and the path of each bad field, one a line
 * (`namespaces.news[0].posts[2].created_at: Invalid ISO datetime`). Fields the schema does not list are
 * dropped, so nothing reaches the build that this file does not describe.
 */
export function parseSnapshot(data: unknown, source: string): SiteSnapshot {
  const result = siteSnapshotSchema.safeParse(data);
  if (result.success) return result.data;
  const { issues } = result.error;
  const listed = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => `  ${formatPath(issue.path)}: ${issue.message}`);
  if (issues.length > MAX_LISTED_ISSUES) listed.push(`  … and ${issues.length - MAX_LISTED_ISSUES} more`);
  throw new Error(`${source} is not a valid site snapshot (common/snapshot-schema.ts):\n${listed.join('\n')}`);
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(the snapshot)';
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`)).join('');
}
