// Exports the public part of the database into the JSON snapshot the Astro build reads
// (src/lib/snapshot-types.ts). Only published content is selected, so a build can never show a draft.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/client.ts';
import { NAMESPACES, type DownloadItem } from '../db/schema.ts';
import { listHomeSectionsWithImages, type HomeSectionWithImages } from '../db/queries/home.ts';
import { listSections } from '../db/queries/sections.ts';
import { listDownloadsForSnapshot, listPublishedPostsForSnapshot, type PublishedPostRow } from '../db/queries/content-snapshot.ts';
import type { Config } from '../env.ts';
import { parseJsonObject } from '../http/json.ts';
import {
  SNAPSHOT_FILE,
  type DownloadEntry,
  type HomeSectionEntry,
  type ImageVariantSize,
  type Namespace,
  type PostEntry,
  type SectionEntry,
  type SiteSnapshot,
} from '../../src/lib/snapshot-types.ts';

export function exportSnapshot(db: Db, config: Pick<Config, 'siteName' | 'siteUrl'>, now: Date = new Date()): SiteSnapshot {
  const namespaces = {} as Record<Namespace, SectionEntry[]>;
  for (const namespace of NAMESPACES) namespaces[namespace] = exportNamespace(db, namespace);
  return {
    generated_at: now.toISOString(),
    site: { name: config.siteName, url: config.siteUrl },
    home: listHomeSectionsWithImages(db).map(toHomeSectionEntry),
    namespaces,
    downloads: listDownloadsForSnapshot(db).map(toDownloadEntry),
  };
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
  for (const row of listPublishedPostsForSnapshot(db, namespace)) {
    let list = postsBySection.get(row.section_id);
    if (!list) postsBySection.set(row.section_id, (list = []));
    list.push(toPostEntry(row));
  }
  return listSections(db, namespace).map((section) => ({
    id: section.id,
    title: section.title,
    title_slug: section.title_slug,
    order: section.order,
    updated_at: section.updated_at,
    posts: postsBySection.get(section.id) ?? [],
  }));
}

function toPostEntry(row: PublishedPostRow): PostEntry {
  return {
    id: row.id,
    title: row.title,
    title_slug: row.title_slug,
    body: row.body,
    display_order: row.display_order,
    created_at: row.created_at,
    updated_at: row.updated_at,
    author: row.author,
    file: row.file,
  };
}

function toHomeSectionEntry(section: HomeSectionWithImages): HomeSectionEntry {
  return {
    id: section.id,
    title: section.title,
    body: section.body,
    order: section.order,
    updated_at: section.updated_at,
    images: section.images.map((image) => ({
      id: image.id,
      title: image.title,
      alt: image.alt,
      urls: stringValues(parseJsonObject(image.urls)),
      sizes: variantSizes(parseJsonObject(image.sizes)),
    })),
  };
}

function toDownloadEntry(item: DownloadItem): DownloadEntry {
  return {
    id: item.id,
    title: item.title,
    body: item.body,
    release: item.release,
    is_current: item.is_current === 1,
    downloadable: item.downloadable === 1,
    filename: item.download_url,
    size: item.size,
    sha256: item.sha256,
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
}

// The JSON columns are written by our own upload code, but a damaged value must not break a publish:
// keep only entries of the expected shape.
function stringValues(value: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function variantSizes(value: Record<string, unknown>): Record<string, ImageVariantSize> {
  const sizes: Record<string, ImageVariantSize> = {};
  for (const [variant, size] of Object.entries(value)) {
    if (size === null || typeof size !== 'object') continue;
    const { width, height } = size as Record<string, unknown>;
    if (typeof width === 'number' && typeof height === 'number') sizes[variant] = { width, height };
  }
  return sizes;
}
