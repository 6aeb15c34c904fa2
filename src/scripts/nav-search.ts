// The nav bar's search box (src/components/SiteSearchForm.astro). On a wide screen the field opens over
// the links while the form has focus; a click on the magnifier with nothing typed used to go to an empty
// /search page instead (issue 14). Both ways now open the field: an empty search just focuses it, and
// only a search with words goes to /search. Without JavaScript the form still submits to /search.

export function enhanceNavSearch(root: Document): void {
  const form = root.querySelector<HTMLFormElement>('.site-search');
  const input = form?.querySelector<HTMLInputElement>('input[name="q"]');
  if (!form || !input) return;
  form.addEventListener('submit', (event) => {
    if (input.value.trim() !== '') return;
    event.preventDefault();
    input.focus();
  });
}
