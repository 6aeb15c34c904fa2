// The peak resident memory a build or a render reports of itself (the metric site_publish_build_peak_rss_bytes),
// the build process (astro-build-process.ts), the renderer (renderer-process.ts) and the markdown pre-render
// (markdown-prerender-process.ts). The first two do more than one piece of work in their life: they reset it.
import fs from 'node:fs';

/**
 * Sets this process's high-water mark (VmHWM) back to its resident memory now, so the peak read after the
 * next piece of work is that work's, not a warm-up's or an earlier render's. Linux ≥ 4.0 only; elsewhere the
 * mark keeps the process's whole life.
 */
export function resetPeakRss(): void {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux, or /proc not writable: the peak reported then covers earlier work too.
  }
}

/**
 * The peak since the last reset, in bytes: VmHWM, the mark resetPeakRss() sets back. Not getrusage's maxRSS
 * (`process.resourceUsage()`): Linux counts in it the resident memory of the process that started this one,
 * as it was at the fork, and clear_refs never lowers it. The renderer, started by a server holding its build
 * and compressed forms, reported the server's ~310 MB as the peak of every render
 * (docs/decisions/0058-first-build-search-after-live.md). maxRSS where there is no /proc.
 */
export function peakRssBytes(): number {
  try {
    const mark = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    if (mark) return Number(mark[1]) * 1024;
  } catch {
    // Not Linux: the lifetime peak below.
  }
  return process.resourceUsage().maxRSS * 1024;
}
