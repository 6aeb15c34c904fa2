// The search page's results (src/pages/search.astro). Pagefind's JS API is imported from the build's
// /pagefind/ only when a search is made, so neither this page's first load nor any other page pays for
// it. Typing searches as you go and keeps ?q= and ?ns= in the address (replaceState: no history per
// keystroke). Excerpts are rebuilt from text and <mark> only, whatever the index holds, formulas readable.
import { readableExcerpt, type ExcerptPart } from '../../common/markdown/search-tex.ts';
import { filterLabel, tidyResultUrl } from '../lib/search-filters';
import { onEveryPage } from './page-lifecycle';

interface PagefindSubResult {
  title: string;
  url: string;
  excerpt: string;
}
interface PagefindData {
  url: string;
  excerpt: string;
  meta: { title?: string };
  filters: Record<string, string[]>;
  sub_results: PagefindSubResult[];
}
interface Pagefind {
  options(options: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  search(term: string, options?: { filters?: Record<string, string> }): Promise<{ results: { data(): Promise<PagefindData> }[] } | null>;
}

const PAGEFIND_URL = '/pagefind/pagefind.js';
const MAX_RESULTS = 20;
const MAX_SUB_RESULTS = 3;
const TYPING_DELAY_MS = 250;

let engine: Promise<Pagefind> | undefined;
let failedLoads = 0;

function loadEngine(): Promise<Pagefind> {
  // A browser keeps a module that failed to load in its module map, and answers every later import of that
  // URL with the same failure without asking the server (Chromium 150 does): a search tried while a new
  // site's index was still being made would then fail until the page is reloaded. So a retry asks for
  // another URL; pagefind.js finds its files from its own URL with the query left off.
  const url = failedLoads === 0 ? PAGEFIND_URL : `${PAGEFIND_URL}?retry=${failedLoads}`;
  engine ??= (import(/* @vite-ignore */ url) as Promise<Pagefind>)
    .then(async (pagefind) => {
      await pagefind.options({ excerptLength: 24 });
      await pagefind.init();
      return pagefind;
    })
    .catch((error: unknown) => {
      engine = undefined;
      failedLoads += 1;
      throw error;
    });
  return engine;
}

/**
 * Text and <mark> from an excerpt; anything else in it becomes plain text. A formula's TeX source (what
 * the index holds of it) is shown in a readable form (common/markdown/search-tex.ts).
 */
function excerptNodes(excerpt: string): Node[] {
  const parsed = new DOMParser().parseFromString(`<p>${excerpt}</p>`, 'text/html').body;
  const parts: ExcerptPart[] = [];
  const walk = (node: Node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) parts.push({ text: child.textContent ?? '', marked: false });
      else if (child instanceof Element && child.localName === 'mark') parts.push({ text: child.textContent ?? '', marked: true });
      else walk(child);
    }
  };
  walk(parsed);
  return readableExcerpt(parts).map(({ text, marked }) => {
    if (!marked) return document.createTextNode(text);
    const mark = document.createElement('mark');
    mark.textContent = text;
    return mark;
  });
}

function element<K extends keyof HTMLElementTagNameMap>(name: K, className: string, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const created = document.createElement(name);
  created.className = className;
  created.append(...children);
  return created;
}

function link(href: string, text: string): HTMLAnchorElement {
  const anchor = document.createElement('a');
  anchor.href = tidyResultUrl(href);
  anchor.textContent = text;
  return anchor;
}

function renderResult(data: PagefindData): HTMLLIElement {
  const title = data.meta.title ?? data.url;
  const item = element('li', 'search-result', element('h2', 'search-result__title', link(data.url, title)));
  const where = filterLabel(data.filters.namespace?.[0]);
  if (where) item.append(element('p', 'search-result__where', where));
  item.append(element('p', 'search-result__excerpt', ...excerptNodes(data.excerpt)));
  // Sections of the page (a post of a section page) that match, each with its own anchor.
  const subs = data.sub_results.filter((sub) => sub.url.includes('#')).slice(0, MAX_SUB_RESULTS);
  if (subs.length > 0) {
    const list = element('ul', 'search-result__subs');
    for (const sub of subs) list.append(element('li', '', link(sub.url, sub.title), element('p', 'search-result__excerpt', ...excerptNodes(sub.excerpt))));
    item.append(list);
  }
  return item;
}

/**
 * True when the site has no search index at all (yet): a server's first build goes live before its index
 * (docs/decisions/0058-first-build-search-after-live.md). Anything else (offline, a broken index) is not this.
 */
async function indexMissing(): Promise<boolean> {
  try {
    return (await fetch(PAGEFIND_URL, { method: 'HEAD', cache: 'no-store' })).status === 404;
  } catch {
    return false;
  }
}

function setup(): (() => void) | void {
  const page = document.querySelector<HTMLElement>('[data-search-page]');
  const form = page?.querySelector<HTMLFormElement>('[data-search-form]');
  const input = page?.querySelector<HTMLInputElement>('[data-search-input]');
  const status = page?.querySelector<HTMLElement>('[data-search-status]');
  const list = page?.querySelector<HTMLOListElement>('[data-search-results]');
  if (!page || !form || !input || !status || !list) return;

  const params = new URLSearchParams(location.search);
  input.value = params.get('q') ?? '';
  const wantedNamespace = params.get('ns') ?? '';
  for (const radio of form.querySelectorAll<HTMLInputElement>('input[name="ns"]')) radio.checked = radio.value === wantedNamespace;

  let latest = 0;
  let typing: number | undefined;
  let active = true;

  const namespace = () => form.querySelector<HTMLInputElement>('input[name="ns"]:checked')?.value ?? '';

  const keepInAddress = (term: string, ns: string) => {
    const query = new URLSearchParams();
    if (term) query.set('q', term);
    if (ns) query.set('ns', ns);
    const search = query.toString();
    history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}`);
  };

  const run = async () => {
    const term = input.value.trim();
    const ns = namespace();
    const mine = ++latest;
    keepInAddress(term, ns);
    if (!term) {
      status.textContent = '';
      list.replaceChildren();
      return;
    }
    status.textContent = 'Searching…';
    try {
      const pagefind = await loadEngine();
      const found = await pagefind.search(term, ns ? { filters: { namespace: ns } } : {});
      // A newer search (or a page change) has taken over: this answer is stale.
      if (!found || mine !== latest || !active) return;
      const data = await Promise.all(found.results.slice(0, MAX_RESULTS).map((result) => result.data()));
      if (mine !== latest || !active) return;
      list.replaceChildren(...data.map(renderResult));
      const count = found.results.length;
      const where = filterLabel(ns);
      status.textContent = `${count === 0 ? 'No' : count} result${count === 1 ? '' : 's'} for “${term}”${where ? ` in ${where}` : ''}${count > MAX_RESULTS ? `, the first ${MAX_RESULTS} shown` : ''}.`;
    } catch (error) {
      console.error('Search failed', error);
      const message = (await indexMissing())
        ? 'The search index is still being made: a new site indexes its pages just after they go live. Please try again in a few seconds.'
        : 'Search is not available right now. Please try again later.';
      if (mine === latest) status.textContent = message;
    }
  };

  const onInput = () => {
    window.clearTimeout(typing);
    typing = window.setTimeout(() => void run(), TYPING_DELAY_MS);
  };
  const onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    window.clearTimeout(typing);
    void run();
  };
  // The first keystroke or focus is the sign a search is coming: fetch the engine meanwhile.
  const warm = () => void loadEngine().catch(() => {});

  input.addEventListener('input', onInput);
  input.addEventListener('focus', warm, { once: true });
  form.addEventListener('change', onInput);
  form.addEventListener('submit', onSubmit);
  if (input.value.trim()) void run();
  // Arrived with nothing to search for (the nav bar's magnifier): ready for typing.
  else input.focus();
  return () => {
    active = false;
    window.clearTimeout(typing);
  };
}

onEveryPage(setup);
