// 'Create XML Map' (docs/product/admin.md#admin-screen; issue 7, item 5). The original wrote entries to the browser console; here
// the sitemap is part of the static build, so the button schedules a publish, waits for it through the
// shared publish status, and then reads the live build's sitemap.xml to show it on the page.
import { useCallback, useRef, useState } from 'react';
import { ApiError } from '../../lib/api/request.ts';
import { publishSettled } from '../../lib/api/publish.ts';
import { publishStore } from '../../stores/publish-status.ts';
import { fetchSitemap, regenerateSitemap, type SitemapAnswer } from '../../lib/api/admin.ts';

export type SitemapRun =
  | { phase: 'idle' }
  | { phase: 'publishing'; message: string }
  | { phase: 'done'; sitemap: SitemapAnswer; publishFailed: boolean }
  | { phase: 'failed'; message: string };

export function useSitemap(): { run: SitemapRun; start: () => void; close: () => void } {
  const [run, setRun] = useState<SitemapRun>({ phase: 'idle' });
  const generation = useRef(0);

  const start = useCallback(() => {
    generation.current += 1;
    const mine = generation.current;
    const stillMine = () => mine === generation.current;
    void (async () => {
      try {
        setRun({ phase: 'publishing', message: 'Asking for a new build…' });
        const answer = await regenerateSitemap();
        if (!stillMine()) return;
        setRun({ phase: 'publishing', message: answer.message });
        const before = answer.publish;
        publishStore.accept(before);
        // Settled and with a new outcome: a status read before the POST (still in flight) may say 'idle'.
        const settled = await publishStore.until(
          (status) => publishSettled(status) && (status.last_success?.at !== before.last_success?.at || status.last_failure?.at !== before.last_failure?.at),
        );
        if (!stillMine()) return;
        const sitemap = await fetchSitemap();
        if (stillMine()) setRun({ phase: 'done', sitemap, publishFailed: settled.state === 'failed' });
      } catch (error) {
        if (stillMine()) setRun({ phase: 'failed', message: error instanceof ApiError ? error.message : 'The server could not be reached.' });
      }
    })();
  }, []);

  const close = useCallback(() => {
    generation.current += 1;
    setRun({ phase: 'idle' });
  }, []);

  return { run, start, close };
}
