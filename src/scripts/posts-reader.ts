// Reader behaviour of the posts screens (docs/product/reading.md#posts-screens) over the static page. The address always names a
// post: a missing or unknown #hash becomes the first post's slug. Clicking a post in the sidebar scrolls
// to it in 0.5 s with a 100 px offset (docs/product/constants.md) and then sets the hash. While the reader scrolls, the
// address follows the article being read (scroll-spy) with replaceState, so scrolling adds no history.
import { POST_SCROLL } from '../lib/reading-constants';
import { onEveryPage, POST_PLACED_EVENT, prefersReducedMotion } from './page-lifecycle';
import { animateScrollTo, scrollTargetOf } from './smooth-scroll';

function hashId(): string {
  const raw = location.hash.slice(1);
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function setup(): (() => void) | void {
  const content = document.querySelector<HTMLElement>('[data-posts-content]');
  const articles = content ? [...content.querySelectorAll<HTMLElement>('article.post[id]')] : [];
  const first = articles[0];
  if (!content || !first) return;
  const links = [...document.querySelectorAll<HTMLAnchorElement>('[data-posts-sidebar] a[data-post-link]')];

  const highlight = (slug: string) => {
    for (const link of links) {
      if (link.dataset.postLink === slug) link.setAttribute('aria-current', 'location');
      else link.removeAttribute('aria-current');
    }
  };
  // The page this setup serves. While a navigation to another page is under way the address already names
  // that page (the Navigation API commits the URL first) but this page is still on screen: rewriting the
  // address then would give it a post of this page and abort the navigation (issue 14, part 2).
  const pagePath = location.pathname;
  const replaceHash = (slug: string) => {
    if (location.pathname !== pagePath) return;
    if (hashId() !== slug) history.replaceState(history.state, '', `${location.pathname}${location.search}#${encodeURIComponent(slug)}`);
    highlight(slug);
  };

  /** A hash naming a post (or its title) is normalised to the post's slug; one inside a post is kept. */
  const correctHash = () => {
    const wanted = hashId();
    const target = wanted ? document.getElementById(wanted) : null;
    const article = target && content.contains(target) ? target.closest<HTMLElement>('article.post[id]') : null;
    if (!target || !article) replaceHash(first.id);
    else if (target === article || target.id === `${article.id}-title`) replaceHash(article.id);
    else highlight(article.id);
  };
  // Correct the hash once the page has loaded: while it loads, the browser still scrolls to whatever
  // fragment the address names, and a hash set then would pull the reader down past the heading.
  if (document.readyState === 'complete') correctHash();
  else window.addEventListener('load', correctHash, { once: true });

  const currentArticles = () => [...content.querySelectorAll<HTMLElement>('article.post[id]')].filter((article) => !article.hidden);
  /** In the reading band: from just under the sticky header to the middle of the window. */
  const inReadingBand = (article: HTMLElement) => {
    const box = article.getBoundingClientRect();
    return box.height > 0 && box.bottom > POST_SCROLL.offsetPx && box.top < window.innerHeight / 2;
  };

  // Scroll-spy. It waits until the reader scrolls away from where the page was put (by the browser on
  // arrival, or by a sidebar click), so it never overrides the post that was asked for.
  let settledAt = window.scrollY;
  let animating = false;
  const spy = () => {
    if (animating) return;
    if (Math.abs(window.scrollY - settledAt) < 2) return;
    settledAt = Number.NaN;
    const atBottom = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
    // The articles as they are now: the admin overlay adds, hides and reorders them after this setup.
    const shown = currentArticles();
    // The post the address names, also by its title's anchor or an anchor inside it: the browser scrolls to
    // `#post-title` (what search results link to) before the load event lets correctHash name the post.
    const named = document.getElementById(hashId())?.closest<HTMLElement>('article.post[id]');
    // At the very bottom a short last post can never reach the reading band: keep it if it is on screen.
    if (atBottom && named && shown.includes(named) && named.getBoundingClientRect().top < window.innerHeight) return;
    const current = shown.find(inReadingBand);
    if (current) replaceHash(current.id);
  };
  // Articles entering or leaving the reading band wake the spy, which then measures them all.
  const observer = new IntersectionObserver(spy, { rootMargin: `-${POST_SCROLL.offsetPx}px 0px -50% 0px` });
  for (const article of articles) observer.observe(article);

  const scrollToPost = async (article: HTMLElement) => {
    animating = true;
    highlight(article.id);
    await animateScrollTo(scrollTargetOf(article, POST_SCROLL.offsetPx), prefersReducedMotion() ? 0 : POST_SCROLL.durationMs);
    // A history entry like any in-page link. The page is already where the browser puts a #fragment
    // (global.css: scroll-padding-top is the same 100 px), so setting it moves nothing.
    if (hashId() !== article.id) location.hash = encodeURIComponent(article.id);
    settledAt = window.scrollY;
    animating = false;
    // Keyboard users continue from the post they chose.
    article.tabIndex = -1;
    article.focus({ preventScroll: true });
  };

  const onClick = (event: MouseEvent) => {
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[data-post-link]') : null;
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const article = document.getElementById(link.dataset.postLink ?? '');
    if (!article || !articles.includes(article)) return;
    event.preventDefault();
    void scrollToPost(article);
  };

  // Wide code, tables and formulas scroll sideways on a phone; keyboard users can scroll them only if
  // they can focus them (older browsers do not make scrollers focusable by themselves).
  for (const scroller of content.querySelectorAll<HTMLElement>('.prose pre, .prose table, .prose .katex-display')) {
    if (scroller.scrollWidth > scroller.clientWidth && !scroller.hasAttribute('tabindex')) scroller.tabIndex = 0;
  }

  // The admin overlay put a post in view (after a save): that is where the page was put.
  const onPlaced = () => {
    settledAt = window.scrollY;
  };

  const sidebar = document.querySelector('[data-posts-sidebar]');
  sidebar?.addEventListener('click', onClick as EventListener);
  window.addEventListener('scrollend', spy);
  window.addEventListener('hashchange', correctHash);
  document.addEventListener(POST_PLACED_EVENT, onPlaced);
  return () => {
    document.removeEventListener(POST_PLACED_EVENT, onPlaced);
    observer.disconnect();
    sidebar?.removeEventListener('click', onClick as EventListener);
    window.removeEventListener('scrollend', spy);
    window.removeEventListener('hashchange', correctHash);
    window.removeEventListener('load', correctHash);
  };
}

onEveryPage(setup);
