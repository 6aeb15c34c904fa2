// /{namespace}/{section}/rss.xml: one RSS feed per section of news, documentation and tutorials.
import type { APIRoute, GetStaticPaths } from 'astro';
import { renderRss, sectionFeed } from '../../../lib/feeds';
// The cached renderer: feeds show the same bodies as the pages, so they reuse their rendering.
import { renderMarkdownCached as renderMarkdown } from '../../../lib/markdown-cache';
import { getSnapshot } from '../../../lib/site-data';
import { NAMESPACE_LIST, type Namespace, type SectionEntry } from '../../../lib/snapshot-types';

export const getStaticPaths = (() =>
  NAMESPACE_LIST.flatMap((namespace) =>
    getSnapshot().namespaces[namespace].map((section) => ({ params: { namespace, section: section.title_slug }, props: { namespace, section } })),
  )) satisfies GetStaticPaths;

export const GET: APIRoute<{ namespace: Namespace; section: SectionEntry }> = ({ props }) =>
  new Response(renderRss(sectionFeed(getSnapshot(), props.namespace, props.section, renderMarkdown)), { headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' } });
