// Every markdown body a build of the snapshot renders (through common/markdown/cache.ts): posts, releases,
// home sections and legal pages, each distinct body once, in the order the build's pages meet them roughly
// (posts first: they are nearly all of it). Used to fill the markdown cache before a full build
// (server/publish/markdown-prerender.ts); a body missed here is only rendered by the build itself.
import type { SiteSnapshot } from './snapshot-schema.ts';

export function snapshotMarkdownBodies(snapshot: SiteSnapshot): string[] {
  const bodies = new Set<string>();
  for (const sections of Object.values(snapshot.namespaces)) {
    for (const section of sections) for (const post of section.posts) bodies.add(post.body);
  }
  for (const item of snapshot.downloads) bodies.add(item.body);
  for (const section of snapshot.home) bodies.add(section.body);
  for (const page of snapshot.legal_pages) bodies.add(page.body);
  return [...bodies];
}
