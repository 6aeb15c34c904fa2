// /{namespace}/{section}/rss.xml: one RSS feed per section of news, documentation and tutorials.
import type { APIRoute, GetStaticPaths } from 'astro';
import { renderRss, sectionFeed } from '../../../lib/feeds';
// The cached renderer: feeds show the same bodies as the pages, so they reuse their rendering.
import { renderMarkdownCached as renderMarkdown } from '../../../../common/markdown/cache.ts';
import { postsCacheKey } from '../../../lib/page-cache-key';
import { getSnapshot } from '../../../lib/site-data';
import type { SectionEntry } from '../../../../common/snapshot-schema';
import { NAMESPACE_LIST, type Namespace } from '../../../../common/snapshot-types';

// A feed shows the site and its one section: an edit elsewhere leaves its key, and a publish copies it.
export const getStaticPaths = (() => {
  const { site, namespaces } = getSnapshot();
  return NAMESPACE_LIST.flatMap((namespace) =>
    namespaces[namespace].map((section) => ({
      params: { namespace, section: section.title_slug },
      props: { namespace, section },
      cacheKey: postsCacheKey(site, [section]),
    })),
  );
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ namespace: Namespace; section: SectionEntry }> = ({ props }) =>
  new Response(renderRss(sectionFeed(getSnapshot(), props.namespace, props.section, renderMarkdown)), {
    headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' },
  });
