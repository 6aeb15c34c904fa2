// Exports the public part of the database into the JSON snapshot the Astro build reads. Its shape is
// common/snapshot-schema.ts, which the build parses with too: the export is parsed before anyone writes
// it, so an exporter bug fails the publish with the path of the bad field instead of a broken site.
// Only published content is selected, so a build can never show a draft.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ZodType } from 'zod';
import type { Db } from '../db/client.ts';
import type { DownloadItem, ReleaseFile } from '../db/schema.ts';
import { publicReleaseFile } from '../../common/release-urls.ts';
import { listDownloadsForSnapshot, listPublishedPostsForSnapshot } from '../db/queries/content-snapshot.ts';
import type { Config } from '../env.ts';
import { parseJsonObject } from '../http/json.ts';
import {
  imageUrlSchema,
  imageVariantSizeSchema,
  parseSnapshot,
  type DownloadEntry,
  type HomeSectionEntry,
  type PostEntry,
  type SectionEntry,
  type SiteSnapshot,
} from '../../common/snapshot-schema.ts';
import { SNAPSHOT_FILE, type Namespace } from '../../common/snapshot-types.ts';
import { listHomeSectionsWithImages, type HomeSectionWithImages, listSections } from '../db/queries/content-snapshot.ts';
import { getContactDetails, listLegalPages } from '../db/queries/site-pages.ts';
import { publicMediaRewriter, rewriteStrings } from './public-media.ts';

/**
 * The snapshot of what is published now. Rows may carry columns the snapshot does not list (a post's
 * section_id, a section's created_at): parsing keeps only what the schema names, so a column added to a
 * query never reaches the build by accident. Throws, naming each bad field, when the export does not match.
 */
export function exportSnapshot(db: Db, config: Pick<Config, 'siteName' | 'siteUrl'> & Partial<Pick<Config, 'storage'>>, now: Date = new Date()): SiteSnapshot {
  const snapshot: SiteSnapshot = {
    generated_at: now.toISOString(),
    site: { name: config.siteName, url: config.siteUrl },
    home: listHomeSectionsWithImages(db).map(toHomeSectionEntry),
    namespaces: { news: exportNamespace(db, 'news'), documentation: exportNamespace(db, 'documentation'), tutorials: exportNamespace(db, 'tutorials') },
    downloads: listDownloadsForSnapshot(db).map(toDownloadEntry),
    legal_pages: listLegalPages(db),
    contact: getContactDetails(db),
  };
  const rewrite = config.storage ? publicMediaRewriter({ storage: config.storage }) : null;
  return parseSnapshot(rewrite ? rewriteStrings(snapshot, rewrite) : snapshot, 'the exported snapshot');
}

/** Writes `<dir>/site.json` via a temp file and rename, so a reader never sees half a snapshot. */
export function writeSnapshot(dir: string, snapshot: SiteSnapshot): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, SNAPSHOT_FILE);
  const temp = path.join(dir, `.${SNAPSHOT_FILE}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  try {
    fs.writeFileSync(temp, JSON.stringify(snapshot));
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  return file;
}

function exportNamespace(db: Db, namespace: Namespace): SectionEntry[] {
  const postsBySection = new Map<number, PostEntry[]>();
  for (const post of listPublishedPostsForSnapshot(db, namespace)) {
    let list = postsBySection.get(post.section_id);
    if (!list) postsBySection.set(post.section_id, (list = []));
    list.push(post);
  }
  return listSections(db, namespace).map((section) => ({ ...section, posts: postsBySection.get(section.id) ?? [] }));
}

function toHomeSectionEntry(section: HomeSectionWithImages): HomeSectionEntry {
  return {
    ...section,
    images: section.images.map((image) => ({
      ...image,
      urls: validEntries(parseJsonObject(image.urls), imageUrlSchema),
      sizes: validEntries(parseJsonObject(image.sizes), imageVariantSizeSchema),
    })),
  };
}

function toDownloadEntry(item: DownloadItem & { files: ReleaseFile[] }): DownloadEntry {
  const first = item.files[0];
  return {
    id: item.id,
    title: item.title,
    body: item.body,
    release: item.release,
    is_current: item.is_current === 1,
    downloadable: item.downloadable === 1,
    filename: first?.name ?? null,
    size: first?.size ?? 0,
    sha256: first?.sha256 ?? '',
    version: item.version,
    channel: item.channel,
    released_at: item.released_at,
    entitlement: item.entitlement,
    // The stored names stay on the server; the links are gated there (issue 25, the snapshot's files).
    files: item.files.map(publicReleaseFile),
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
}

// The JSON columns are written by our own upload code, but a damaged value must not break a publish:
// keep only the entries of the expected shape.
function validEntries<T>(value: Record<string, unknown>, schema: ZodType<T>): Record<string, T> {
  const valid: Record<string, T> = {};
  for (const [key, item] of Object.entries(value)) {
    const parsed = schema.safeParse(item);
    if (parsed.success) valid[key] = parsed.data;
  }
  return valid;
}
