// Reads the sitemap of the live build for the admin screen (issue 7, item 5). The site build writes it
// (another part of the pipeline); this only finds and parses it. sitemap.xml is read first; a sitemap
// index (sitemap-index.xml, as @astrojs/sitemap writes) is followed to its local parts.
import fs from 'node:fs';
import path from 'node:path';
import { BUILD_ID_PATTERN } from '../../publish/build-dirs.ts';

export interface SitemapEntry {
  loc: string;
  priority: number | null;
  lastmod: string | null;
  changefreq: string | null;
}

export interface LiveSitemap {
  /** The file read, relative to the build (sitemap.xml or sitemap-index.xml). */
  file: string;
  xml: string;
  entries: SitemapEntry[];
}

/** Parts an index may name, at most: a sitemap index points to our own small files, not to thousands. */
const MAX_INDEX_PARTS = 50;

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  return text
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (match, name: string) => {
      if (name[0] === '#') {
        const code = name[1]?.toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : match;
      }
      return XML_ENTITIES[name.toLowerCase()] ?? match;
    })
    .trim();
}

function tag(block: string, name: string): string | null {
  const match = new RegExp(`<(?:[\\w-]+:)?${name}\\b[^>]*>([\\s\\S]*?)</(?:[\\w-]+:)?${name}>`, 'i').exec(block);
  return match?.[1] === undefined ? null : decodeXml(match[1]);
}

function blocks(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<(?:[\\w-]+:)?${name}\\b[^>]*>([\\s\\S]*?)</(?:[\\w-]+:)?${name}>`, 'gi'))].map((match) => match[1] ?? '');
}

/** The <url> entries of a sitemap (sitemaps.org schema); entries without <loc> are left out. */
export function parseSitemap(xml: string): SitemapEntry[] {
  const entries: SitemapEntry[] = [];
  for (const block of blocks(xml, 'url')) {
    const loc = tag(block, 'loc');
    if (!loc) continue;
    const priorityText = tag(block, 'priority');
    const priority = priorityText === null ? null : Number(priorityText);
    entries.push({ loc, priority: priority === null || Number.isNaN(priority) ? null : priority, lastmod: tag(block, 'lastmod'), changefreq: tag(block, 'changefreq') });
  }
  return entries;
}

function readIfFile(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The sitemap of build `buildId` under `buildsDir`, or null when the build has none. */
export function readLiveSitemap(buildsDir: string, buildId: string): LiveSitemap | null {
  // The id comes from the publisher, but it still names a directory: only the publisher's own form passes.
  if (!BUILD_ID_PATTERN.test(buildId)) return null;
  const buildDir = path.join(buildsDir, buildId);
  const direct = readIfFile(path.join(buildDir, 'sitemap.xml'));
  if (direct !== null) return { file: 'sitemap.xml', xml: direct, entries: parseSitemap(direct) };

  const index = readIfFile(path.join(buildDir, 'sitemap-index.xml'));
  if (index === null) return null;
  const entries: SitemapEntry[] = [];
  for (const block of blocks(index, 'sitemap').slice(0, MAX_INDEX_PARTS)) {
    const loc = tag(block, 'loc');
    // Only a plain file name in the build's root: an index must not make us read anything else.
    const name = loc ? path.posix.basename(new URL(loc, 'http://localhost/').pathname) : '';
    if (!/^[\w.-]+\.xml$/.test(name)) continue;
    const part = readIfFile(path.join(buildDir, name));
    if (part !== null) entries.push(...parseSitemap(part));
  }
  return { file: 'sitemap-index.xml', xml: index, entries };
}
