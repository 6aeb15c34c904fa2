// The publish measures of the bench: waiting for the publisher to settle, one admin save → the changed page
// served (with the build processes' peak memory), and the last build's own reported peak.
import type { ApiClient } from '../../tests/helpers/fetch-client.ts';
import { samplePeakChildMemory, type ProductProcess } from './product.ts';
import type { ScaledSeed } from './seed-scaled.ts';

/** The pause before each measured publish (settle()). */
export const SETTLE_MS = 3000;

export async function pageContains(url: string, text: string): Promise<boolean> {
  const response = await fetch(url);
  return response.status === 200 && (await response.text()).includes(text);
}

/**
 * Waits until the publisher has nothing queued or running, its search index included (it follows the pages,
 * the first build's too: docs/decisions/0058-first-build-search-after-live.md), then 3 s more: an admin's next
 * save comes seconds after the last publish, by when the build process for it is loaded and warmed up (0036).
 * The save right behind another is measured on its own.
 */
export async function settle(admin: ApiClient): Promise<void> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const status = (await (await admin.json('GET', '/api/admin/publish')).json()) as { state: string; pending: boolean; search?: string };
    if (status.state !== 'building' && !status.pending && status.search !== 'updating') break;
    if (Date.now() > deadline) throw new Error('the publisher was still busy after 300 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
}

/**
 * Waits until `path` is served brotli-compressed on fresh connections (so by each serving process): a server's
 * first build goes live before its compressed forms are made (server/serving.ts), and what the bench measures
 * of an idle server (its memory, the pages' weight, static serving) is the server with them.
 */
export async function compressedFormsServed(base: string, path = '/'): Promise<void> {
  const deadline = Date.now() + 120_000;
  const compressed = async () => {
    const answer = await fetch(`${base}${path}`, { headers: { 'Accept-Encoding': 'br', Connection: 'close' } });
    await answer.arrayBuffer();
    return answer.headers.get('content-encoding') === 'br';
  };
  for (;;) {
    const answers = await Promise.all(Array.from({ length: 8 }, compressed));
    if (answers.every(Boolean)) return;
    if (Date.now() > deadline) throw new Error(`${path} was still served uncompressed after 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** site_publish_build_peak_rss_bytes from /metrics (served to loopback): the last Astro build's peak. */
export async function lastBuildPeak(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = /^site_publish_build_peak_rss_bytes(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1];
  if (value === undefined) throw new Error('/metrics has no site_publish_build_peak_rss_bytes');
  return Number(value);
}

/**
 * One admin save of the bench's news post, timed until the changed page is served at `pageBase` (the
 * product itself, or nginx in front of it in the production recipe).
 */
export async function measurePublish(product: ProductProcess, admin: ApiClient, seed: ScaledSeed, attempt: number, pageBase = product.base) {
  const { id: sectionId, slug, postId } = seed.sections.news;
  const marker = `Edited by the bench ${Date.now()}-${attempt}`;
  const before = (await (await admin.json('GET', '/api/admin/publish')).json()) as { last_success: { build_id: string } | null };
  const memory = samplePeakChildMemory(product.pid);
  const started = performance.now();
  const saved = await admin.json('PUT', '/api/news/update', {
    id: postId,
    title: marker,
    body: `A changed body.\n\n${marker}`,
    section_id: sectionId,
    published: 1,
    display_order: 0,
  });
  if (saved.status !== 200) throw new Error(`the admin's save answered ${saved.status}: ${await saved.text()}`);
  const pageUrl = `${pageBase}/news/${slug}/`;
  const deadline = Date.now() + 300_000;
  while (!(await pageContains(pageUrl, marker))) {
    if (Date.now() > deadline) throw new Error(`the edited post did not appear on ${pageUrl} within 300 s:\n${product.log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  const sampledPeak = memory.stop();
  // The page is served from the switch on; the publisher records its success a moment later. Reading the
  // status at once could report the previous publish's duration (a cold build's, once): wait for this one's.
  let buildMs: number | null = null;
  const statusDeadline = Date.now() + 10_000;
  while (buildMs === null && Date.now() < statusDeadline) {
    const status = (await (await admin.json('GET', '/api/admin/publish')).json()) as { last_success: { duration_ms: number; build_id: string } | null };
    if (status.last_success && status.last_success.build_id !== before.last_success?.build_id) buildMs = status.last_success.duration_ms;
    else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // The Astro process ends with its build: a peak in its last sampling interval would be missed, but never
  // the peak it reports of itself (a lower bound of the sum at that moment).
  return { seconds, peakBuildBytes: Math.max(sampledPeak, await lastBuildPeak(product.base)), buildMs };
}
