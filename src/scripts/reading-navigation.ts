// Internal links between reading pages (src/lib/reading-routes.ts) without a full reload, where the
// browser has the Navigation API: the next page is fetched, and only its <main>, title and head metadata
// replace the current ones. The header (with the account area another script renders), anything appended
// to <body> and every module already loaded stay as they are, so their scripts need not know about this.
// Browsers without the API, and pages this cannot swap safely, get ordinary page loads. About 1.5 KB,
// against Astro's ClientRouter's 5.6 KB that swaps the whole body.
import { isReadingPath } from '../lib/reading-routes';
import { AFTER_SWAP_EVENT, BEFORE_SWAP_EVENT, prefersReducedMotion } from './page-lifecycle';

/** Head elements that describe the page (swapped); stylesheets and scripts are only ever added. */
const PAGE_META =
  'meta[name="description"], meta[name="robots"], meta[property^="og:"], meta[property^="article:"], meta[name^="twitter:"], link[rel="canonical"], link[rel="alternate"]';

// The Navigation API's few members used here (not yet in TypeScript's DOM types).
interface NavigationLike {
  addEventListener(type: 'navigate', listener: (event: NavigateEventLike) => void): void;
}
interface NavigateEventLike extends Event {
  readonly canIntercept: boolean;
  readonly hashChange: boolean;
  readonly downloadRequest: string | null;
  readonly formData: FormData | null;
  readonly userInitiated: boolean;
  readonly navigationType: 'push' | 'replace' | 'reload' | 'traverse';
  readonly destination: { readonly url: string };
  readonly signal: AbortSignal;
  intercept(options: { handler: () => Promise<void>; scroll?: 'manual' | 'after-transition' }): void;
  scroll(): void;
}

function shouldIntercept(event: NavigateEventLike): boolean {
  if (!event.canIntercept || event.hashChange || event.downloadRequest !== null || event.formData) return false;
  // Replacements made by scripts (history.replaceState, location.replace) are theirs to handle; a user
  // re-clicking the current page's link is a replace too, and is swapped like any click.
  if (event.navigationType === 'reload' || (event.navigationType === 'replace' && !event.userInitiated)) return false;
  const url = new URL(event.destination.url);
  return url.origin === location.origin && isReadingPath(url.pathname) && document.querySelector('main[data-reading]') !== null;
}

/** The next page as a document, or null when only a real page load can show it. */
async function fetchPage(url: string, signal: AbortSignal): Promise<{ doc: Document; finalUrl: string } | null> {
  const response = await fetch(url, { signal, headers: { Accept: 'text/html' } });
  if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('text/html')) return null;
  const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
  const main = doc.querySelector('main[data-reading]');
  // Islands and inline scripts would need Astro's loader and the new page's CSP hashes: load those pages.
  if (!main || main.querySelector('astro-island, script:not([src])') || doc.querySelector('body script:not([src])')) return null;
  return { doc, finalUrl: response.url };
}

function loadStylesheets(doc: Document): Promise<unknown> {
  const loading: Promise<unknown>[] = [];
  for (const link of doc.querySelectorAll<HTMLLinkElement>('head link[rel="stylesheet"]')) {
    const href = link.getAttribute('href');
    if (!href || document.querySelector(`link[rel="stylesheet"][href="${CSS.escape(href)}"]`)) continue;
    const added = document.createElement('link');
    added.rel = 'stylesheet';
    added.href = href;
    loading.push(
      new Promise((resolve) => {
        added.onload = resolve;
        added.onerror = resolve;
      }),
    );
    document.head.append(added);
  }
  // Wait for new styles before showing the page that needs them, so it never flashes unstyled.
  return Promise.all(loading);
}

function swapPage(doc: Document): void {
  document.dispatchEvent(new Event(BEFORE_SWAP_EVENT));
  document.title = doc.title;
  for (const element of document.head.querySelectorAll(PAGE_META)) element.remove();
  document.head.append(...[...doc.head.querySelectorAll(PAGE_META)].map((element) => document.importNode(element, true)));
  const main = document.querySelector('main[data-reading]');
  const next = doc.querySelector('main[data-reading]');
  if (main && next) main.replaceWith(document.importNode(next, true));
  // The nav bar stays; only which link is current changes.
  const nextCurrent = new Set([...doc.querySelectorAll('[data-nav] a[aria-current]')].map((link) => link.getAttribute('href')));
  for (const link of document.querySelectorAll('[data-nav] a[href]')) {
    if (nextCurrent.has(link.getAttribute('href'))) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

/** Modules the new page needs that this one has not loaded yet (a module runs once per document). */
function loadNewScripts(doc: Document): void {
  const loaded = new Set([...document.querySelectorAll<HTMLScriptElement>('script[src]')].map((script) => script.src));
  for (const script of doc.querySelectorAll<HTMLScriptElement>('script[type="module"][src]')) {
    const src = new URL(script.getAttribute('src') ?? '', location.href).href;
    if (loaded.has(src)) continue;
    const added = document.createElement('script');
    added.type = 'module';
    added.src = src;
    document.head.append(added);
  }
}

/** Screen readers hear the new page's title, as on a page load. */
function announce(title: string): void {
  let region = document.getElementById('route-announcer');
  if (!region) {
    region = document.createElement('p');
    region.id = 'route-announcer';
    region.className = 'sr-only';
    region.setAttribute('aria-live', 'polite');
    region.setAttribute('aria-atomic', 'true');
    document.body.append(region);
  }
  const target = region;
  target.textContent = '';
  // A change in the next task is one screen readers reliably notice.
  setTimeout(() => (target.textContent = title), 100);
}

function onNavigate(event: NavigateEventLike): void {
  if (!shouldIntercept(event)) return;
  const hash = new URL(event.destination.url).hash;
  event.intercept({
    scroll: 'manual',
    handler: async () => {
      const page = await fetchPage(event.destination.url, event.signal).catch((error: unknown) => {
        if (event.signal.aborted) throw error;
        return null;
      });
      if (!page) {
        // The address already shows the destination: load it for real.
        location.reload();
        return;
      }
      await loadStylesheets(page.doc);
      if (event.signal.aborted) return;
      const update = () => {
        swapPage(page.doc);
        // A redirect (an unknown section goes to its namespace) lands on another address: show that one.
        const finalUrl = new URL(page.finalUrl);
        if (finalUrl.pathname !== location.pathname) history.replaceState(history.state, '', finalUrl.pathname + finalUrl.search + hash);
        // Top of the page, the #fragment, or the old position when going back: before the page's own
        // scripts run, so a hash they add afterwards does not move the reader.
        event.scroll();
        document.dispatchEvent(new Event(AFTER_SWAP_EVENT));
      };
      const transition = prefersReducedMotion() ? undefined : document.startViewTransition?.(update);
      if (transition) await transition.updateCallbackDone;
      else update();
      loadNewScripts(page.doc);
      announce(document.title);
    },
  });
}

const navigation = (window as unknown as { navigation?: NavigationLike }).navigation;
navigation?.addEventListener('navigate', onNavigate);
