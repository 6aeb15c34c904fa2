// The namespaces search results can be narrowed to. The values are what the pages declare with
// data-pagefind-filter="namespace:…" (PostsPage, index and downloads pages).
export const SEARCH_FILTERS = [
  { value: 'news', label: 'News' },
  { value: 'documentation', label: 'Documentation' },
  { value: 'tutorials', label: 'Tutorials' },
  { value: 'downloads', label: 'Downloads' },
  { value: 'home', label: 'Home' },
] as const;

export function filterLabel(value: string | undefined): string | undefined {
  return SEARCH_FILTERS.find((filter) => filter.value === value)?.label;
}

/** Pagefind's page URLs end in a slash (it strips index.html); the site's own links do not. */
export function tidyResultUrl(url: string): string {
  return url.replace(/(.)\/(?=[#?]|$)/, '$1');
}
