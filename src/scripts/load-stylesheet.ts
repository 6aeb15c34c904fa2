// Adds a stylesheet by URL (from a `?url` import) when a lazily loaded island needs it. Importing a sheet
// from a client-side module instead makes Astro link it from every page that has a script, which would
// put admin styles on every reader's page.

/** Resolves once the sheet has loaded or failed (unstyled beats not showing the island at all). */
export function loadStylesheet(url: string): Promise<void> {
  const present = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].some((link) => link.href.endsWith(url));
  if (present) return Promise.resolve();
  return new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = url;
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
}
