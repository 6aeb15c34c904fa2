// The peak resident memory a build or a render reports of itself (the metric site_publish_build_peak_rss_bytes),
// the build process (astro-build-process.ts), the renderer (renderer-process.ts) and the markdown pre-render
// (markdown-prerender-process.ts). The first two do more than one piece of work in their life: they reset it.
import fs from 'node:fs';

/**
 * Sets this process's high-water mark (VmHWM, and so maxRSS) back to its resident memory now, so the peak
 * read after the next piece of work is that work's, not a warm-up's or an earlier render's. Linux ≥ 4.0 only;
 * elsewhere the mark keeps the process's whole life.
 */
export function resetPeakRss(): void {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux, or /proc not writable: the peak reported then covers earlier work too.
  }
}

/** The peak since the last reset, in bytes (maxRSS is in KiB). */
export function peakRssBytes(): number {
  return process.resourceUsage().maxRSS * 1024;
}
