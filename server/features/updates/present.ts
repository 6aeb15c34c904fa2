// The update feeds' answer shapes (issue 25 item 4; docs/updates.md): `latest` as JSON, electron-builder's
// latest*.yml for electron-updater's generic provider, and a Sparkle 2 appcast. Release notes are the
// release body through the site's one markdown pipeline, rendered once per release version (cached). The
// pipeline and the YAML writer are loaded on first use (server/lazy-libraries.ts): the routes pass them in.
import type { stringify as yamlStringify } from 'yaml';
import type { renderMarkdown } from '../../../common/markdown/index.ts';
import { escapeXml, xmlCdata } from '../../../common/xml.ts';
import type { ReleaseFile } from '../../db/schema.ts';
import type { ReleaseWithFiles } from '../downloads/index.ts';
import type { FeedEntry } from './feeds.ts';

const NOTES_CACHE_SIZE = 200;
const notesCache = new Map<string, string>();

/** Markdown to sanitised HTML: the pipeline's renderMarkdown, once loaded. */
export type RenderMarkdown = typeof renderMarkdown;

/** The release notes as HTML (sanitised by the pipeline), cached by release and its last change. */
export function notesHtml(release: Pick<ReleaseWithFiles, 'id' | 'updated_at' | 'body'>, render: RenderMarkdown): string {
  const key = `${release.id}\n${release.updated_at}`;
  let html = notesCache.get(key);
  if (html === undefined) {
    html = render(release.body);
    if (notesCache.size >= NOTES_CACHE_SIZE) notesCache.delete(notesCache.keys().next().value as string);
    notesCache.set(key, html);
  }
  return html;
}

export interface LatestFileView {
  name: string;
  size: number;
  sha256: string;
  /** Lower-case hex. */
  sha512: string;
  /** A signed link, good for 15 minutes, no session needed. */
  url: string;
}

export interface LatestView {
  version: string;
  channel: 'stable' | 'beta';
  released_at: string;
  notes_markdown: string;
  notes_html: string;
  file: LatestFileView;
}

export function presentLatest(entry: FeedEntry, url: string, render: RenderMarkdown): LatestView {
  const { release } = entry;
  const file = entry.files[0]!;
  return {
    version: release.version,
    channel: release.channel,
    released_at: release.released_at,
    notes_markdown: release.body,
    notes_html: notesHtml(release, render),
    file: { name: file.name, size: file.size, sha256: file.sha256, sha512: file.sha512 ?? '', url },
  };
}

const base64OfHex = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

/** electron-builder's update info (the generic provider's latest.yml): sha512 in base64, absolute URLs. */
export function presentUpdateYaml(entry: FeedEntry, urlOf: (file: ReleaseFile) => string, stringify: typeof yamlStringify): string {
  const files = entry.files.map((file) => ({ url: urlOf(file), sha512: base64OfHex(file.sha512 ?? ''), size: file.size }));
  const first = files[0]!;
  return stringify({ version: entry.release.version, files, path: first.url, sha512: first.sha512, releaseDate: entry.release.released_at });
}

/** A Sparkle 2 appcast, newest first; every enclosure carries the file's Ed25519 signature. */
export function presentAppcast(options: {
  title: string;
  link: string;
  entries: readonly FeedEntry[];
  urlOf: (file: ReleaseFile) => string;
  render: RenderMarkdown;
}): string {
  const items = options.entries.map((entry) => {
    const file = entry.files[0]!;
    const { release } = entry;
    return [
      '    <item>',
      `      <title>${escapeXml(`${release.title} ${release.version}`)}</title>`,
      `      <pubDate>${new Date(release.released_at).toUTCString()}</pubDate>`,
      `      <sparkle:version>${escapeXml(release.version)}</sparkle:version>`,
      `      <sparkle:shortVersionString>${escapeXml(release.version)}</sparkle:shortVersionString>`,
      `      <description>${xmlCdata(notesHtml(release, options.render))}</description>`,
      `      <enclosure url="${escapeXml(options.urlOf(file))}" length="${file.size}" type="application/octet-stream" sparkle:edSignature="${escapeXml(file.ed_signature ?? '')}"/>`,
      '    </item>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<rss version="2.0" xmlns:sparkle="http://www.andymatuschak.org/xml-namespaces/sparkle" xmlns:dc="http://purl.org/dc/elements/1.1/">',
    '  <channel>',
    `    <title>${escapeXml(options.title)}</title>`,
    `    <link>${escapeXml(options.link)}</link>`,
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}
