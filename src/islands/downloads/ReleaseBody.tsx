// A release's rendered markdown in the admin list. The static page already holds the build's rendering of
// every published release: that HTML is reused while the release is unchanged (same updated_at), so the
// markdown pipeline (a sizeable chunk with KaTeX) loads only after an admin adds or edits a release.
// Both come out of the same sanitising pipeline (common/markdown), so either is safe to insert.
import { useEffect, useState } from 'react';
import type { Release } from '../../lib/api/downloads.ts';

export interface StaticBody {
  updatedAt: string;
  html: string;
}

export type StaticBodies = ReadonlyMap<number, StaticBody>;

/** The rendered bodies of the static page's cards and rows, read before the island hides them. */
export function collectStaticBodies(page: ParentNode): Map<number, StaticBody> {
  const bodies = new Map<number, StaticBody>();
  for (const element of page.querySelectorAll<HTMLElement>('[data-download-id][data-updated-at]')) {
    const prose = element.querySelector('.prose');
    const id = Number(element.dataset.downloadId);
    if (prose && Number.isSafeInteger(id)) bodies.set(id, { updatedAt: element.dataset.updatedAt ?? '', html: prose.innerHTML });
  }
  return bodies;
}

const loadMarkdown = () => import('../../../common/markdown/index.ts');

export function ReleaseBody({ release, staticBodies, compact = false }: { release: Release; staticBodies: StaticBodies; compact?: boolean }) {
  const published = staticBodies.get(release.id);
  const reusable = published && published.updatedAt === release.updated_at ? published.html : null;
  const [rendered, setRendered] = useState<{ source: string; html: string } | null>(null);

  useEffect(() => {
    if (reusable !== null) return;
    let current = true;
    loadMarkdown()
      .then(({ renderMarkdown }) => {
        if (current) setRendered({ source: release.body, html: renderMarkdown(release.body) });
      })
      .catch((error: unknown) => console.error('Could not render the release body', error));
    return () => {
      current = false;
    };
  }, [reusable, release.body]);

  const className = compact ? 'prose prose--compact' : 'prose';
  const html = reusable ?? (rendered?.source === release.body ? rendered.html : null);
  // Until the renderer arrives: the markdown as plain text, which is readable and never unsafe.
  if (html === null) return <div className={`${className} release-body--plain`}>{release.body}</div>;
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
