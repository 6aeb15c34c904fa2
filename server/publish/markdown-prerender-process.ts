// The markdown pre-render's own short-lived process (docs/decisions/0052-markdown-prerender.md), forked by the
// build process (forkMarkdownPrerender in markdown-prerender.ts), never started by hand. Its worker threads
// ran inside the build process at first: their heaps went when they exited, but the memory the threads had
// taken from the C allocator stayed with the process, which was then kept as the renderer of later publishes
// (0044): +130 MB resident at 1,000 posts, measured. A process of their own gives all of it back when it exits.
import type { PrerenderJob, PrerenderReport } from './markdown-prerender.ts';
import { startMarkdownPrerender } from './markdown-prerender.ts';
import { peakRssBytes } from './peak-rss.ts';
import { pathToFileURL } from 'node:url';

if (!process.send) {
  console.error('server/publish/markdown-prerender-process.ts is started by the build process, not by hand.');
  process.exit(1);
}

// The build ended (or its process went away): nothing is waiting for the rest.
process.on('disconnect', () => process.exit(0));

process.once('message', (job: PrerenderJob) => {
  const workerFile = job.workerFile ? pathToFileURL(job.workerFile) : undefined;
  void startMarkdownPrerender({ contentDir: job.contentDir, cacheDir: job.cacheDir, threads: job.threads, workerFile }).done.then((summary) => {
    const report: PrerenderReport = { ...summary, peakRssBytes: peakRssBytes() };
    process.send?.(report, () => process.exit(0));
  });
});
