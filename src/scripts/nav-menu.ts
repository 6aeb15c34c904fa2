// The hamburger's scripted behaviour: a real toggle button (aria-expanded) instead of the no-JS
// `:target` links, closing when a link or button in the menu is chosen, on a tap outside the bar, or on
// Escape.

export function enhanceNavMenu(root: Document): void {
  const nav = root.querySelector<HTMLElement>('[data-nav]');
  const button = nav?.querySelector<HTMLButtonElement>('[data-nav-toggle]');
  const menu = nav && root.getElementById(button?.getAttribute('aria-controls') ?? '');
  if (!nav || !button || !menu) return;

  const isOpen = () => button.getAttribute('aria-expanded') === 'true';
  const setOpen = (open: boolean) => {
    button.setAttribute('aria-expanded', String(open));
    nav.toggleAttribute('data-open', open);
  };

  // The button and the fallback links share one spot, so swapping them shifts nothing.
  for (const fallback of nav.querySelectorAll<HTMLElement>('[data-nav-fallback]')) fallback.hidden = true;
  button.hidden = false;
  // From here the button alone decides; the CSS stops following :target.
  nav.setAttribute('data-enhanced', '');

  // Arrived with the no-JS menu open (#site-menu): keep it open, under the button's control.
  if (root.location.hash === `#${menu.id}`) {
    setOpen(true);
    history.replaceState(history.state, '', root.location.pathname + root.location.search);
  }

  button.addEventListener('click', () => setOpen(!isOpen()));
  menu.addEventListener('click', (event) => {
    const chosen = event.target instanceof Element ? event.target.closest('a, button') : null;
    if (!chosen) return;
    // The magnifier with nothing typed only puts the cursor in the search field (nav-search.ts): keep the menu for typing.
    const search = chosen.closest('form.site-search')?.querySelector<HTMLInputElement>('input[name="q"]');
    if (search && search.value.trim() === '') return;
    setOpen(false);
  });
  // A tap or click anywhere outside the bar closes the open menu, as people expect of a drop-down (issue 14).
  root.addEventListener('pointerdown', (event) => {
    if (!isOpen() || (event.target instanceof Node && nav.contains(event.target))) return;
    setOpen(false);
  });
  root.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !isOpen()) return;
    setOpen(false);
    button.focus();
  });
}
