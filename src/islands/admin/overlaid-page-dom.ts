// What the admin overlays of the reading pages (home-page-dom.ts, posts-page-dom.ts) share about the static
// page under them, in one place: the hosts React renders into, kept as an external store
// (useSyncExternalStore: the overlay lays the DOM out in a layout effect and renders its portals into
// whatever elements that produced); the elements the overlay created, hid, took over (its static content
// put aside) or gave an admin bar; and restore(), which puts all of it back when the overlay goes (the
// admin logged out, or the reading page is swapped).

/** What a static element the overlay took over looked like. */
interface SavedElement {
  children: Node[];
  id: string;
  className: string;
}

export abstract class OverlaidPageDom<Host> {
  private current: Host[] = [];
  private readonly listeners = new Set<() => void>();
  /** Elements the overlay made for items the static page does not have, by item id. */
  protected readonly created = new Map<number, HTMLElement>();
  private readonly barHosts = new Map<number, HTMLElement>();
  private readonly hidden = new Set<HTMLElement>();
  private readonly saved = new Map<HTMLElement, SavedElement>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly hosts = (): Host[] => this.current;

  protected publish(hosts: Host[]): void {
    this.current = hosts;
    for (const listener of this.listeners) listener();
  }

  protected hide(element: HTMLElement): void {
    if (!element.hidden) {
      element.hidden = true;
      this.hidden.add(element);
    }
  }

  protected show(element: HTMLElement): void {
    if (this.hidden.delete(element)) element.hidden = false;
  }

  /** Removes the created elements of items that are gone. */
  protected dropCreated(wanted: ReadonlySet<number>): void {
    for (const [id, element] of this.created) {
      if (!wanted.has(id)) {
        element.remove();
        this.created.delete(id);
      }
    }
  }

  /** The element, first in `parent`, that React renders an item's admin bar into while the static content is current. */
  protected barHost(id: number, parent: HTMLElement, className: string): HTMLElement {
    let host = this.barHosts.get(id);
    if (!host) {
      host = document.createElement('div');
      host.className = className;
      this.barHosts.set(id, host);
    }
    if (host.parentElement !== parent) parent.prepend(host);
    return host;
  }

  protected isTakenOver(element: HTMLElement): boolean {
    return this.saved.has(element);
  }

  /** The overlay renders this element's content from now on: its static content is put aside. */
  protected takeOver(id: number, element: HTMLElement): void {
    if (this.saved.has(element)) return;
    this.barHosts.get(id)?.remove();
    this.barHosts.delete(id);
    this.saved.set(element, { children: [...element.childNodes], id: element.id, className: element.className });
    element.replaceChildren();
  }

  /** Puts the static page back as it was. */
  restore(): void {
    this.current = [];
    for (const element of this.created.values()) element.remove();
    for (const host of this.barHosts.values()) host.remove();
    for (const [element, saved] of this.saved) {
      element.replaceChildren(...saved.children);
      element.id = saved.id;
      element.className = saved.className;
    }
    for (const element of this.hidden) element.hidden = false;
    this.created.clear();
    this.barHosts.clear();
    this.saved.clear();
    this.hidden.clear();
  }
}
