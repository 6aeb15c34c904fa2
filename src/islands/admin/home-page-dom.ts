// The home page's static sections under the admin overlay, like posts-page-dom.ts for articles: sections
// in the API's order, new ones added, deleted ones hidden. Only the text column of a section is the
// overlay's to render (title, body, the first section's buttons); the static slideshow stays, since its
// images are what readers see until the publish, and the admin bar lists the images assigned now.
// The store and the bookkeeping are the one OverlaidPageDom's (overlaid-page-dom.ts).
import type { HomeSection } from '../../lib/api/home.ts';
import { OverlaidPageDom } from './overlaid-page-dom.ts';

export interface SectionHost {
  sectionId: number;
  /** The text column the overlay renders into when the static text is not current. */
  text: HTMLElement;
  /** The static text is current: React renders only the admin bar, into this element. */
  barHost: HTMLElement | null;
  first: boolean;
}

export class HomePageDom extends OverlaidPageDom<SectionHost> {
  private readonly list: HTMLElement;
  private readonly staticSections = new Map<number, { element: HTMLElement; first: boolean }>();
  /** The placeholder shown when the site had no sections at the last publish. */
  private readonly placeholders: HTMLElement[];

  private readonly panel: HTMLElement;
  /** What the static figures said before the overlay wrote the API's titles and alt texts into them. */
  private readonly savedFigures = new Map<HTMLElement, { alt: string; caption: string | null }>();

  /** `panel`: the overlay's own container, placed by the caller before the sections. */
  constructor(main: HTMLElement, panel: HTMLElement) {
    super();
    const sections = [...main.querySelectorAll<HTMLElement>('[data-home-section]')];
    this.list = sections[0]?.parentElement ?? main.querySelector<HTMLElement>('.home-sections') ?? main;
    this.panel = panel;
    sections.forEach((element, index) => {
      const id = Number(element.dataset.homeSection);
      if (Number.isSafeInteger(id)) this.staticSections.set(id, { element, first: index === 0 });
    });
    this.placeholders = [...this.list.querySelectorAll<HTMLElement>(':scope > section.home-section:not([data-home-section])')];
  }

  /** One element per section, in the API's order; publishes where React renders. */
  sync(sections: readonly HomeSection[]): void {
    const wanted = new Set(sections.map((section) => section.id));
    for (const placeholder of this.placeholders) placeholder.hidden = sections.length > 0;
    for (const [id, { element }] of this.staticSections) if (!wanted.has(id)) this.hide(element);
    this.dropCreated(wanted);
    const hosts: SectionHost[] = [];
    let previous: Element | null = null;
    sections.forEach((section, index) => {
      const host = this.hostFor(section, index === 0);
      const element = host.text.closest<HTMLElement>('[data-home-section]') ?? host.text;
      if (previous === null) {
        // First in the list, or right after the panel when the panel shares the list's parent.
        if (this.panel.parentElement === this.list) {
          if (this.panel.nextElementSibling !== element) this.panel.after(element);
        } else if (this.list.firstElementChild !== element) this.list.prepend(element);
      } else if (previous.nextElementSibling !== element) previous.after(element);
      previous = element;
      hosts.push(host);
    });
    this.syncFigures(sections);
    this.publish(hosts);
  }

  /**
   * The static slideshows show the API's title and alt text of each image they hold, so a renamed image
   * reads as renamed on the admin's own page before the publish (issue 14, part 2). The rule is
   * src/components/HomeFigures.astro's: the title is the caption unless it only repeats the alt text.
   */
  private syncFigures(sections: readonly HomeSection[]): void {
    for (const section of sections) {
      const element = this.staticSections.get(section.id)?.element;
      if (!element) continue;
      for (const image of section.images) {
        const figure = element.querySelector<HTMLElement>(`[data-image-id="${image.id}"] figure`);
        const img = figure?.querySelector('img');
        if (!figure || !img) continue;
        let caption = figure.querySelector('figcaption');
        if (!this.savedFigures.has(figure)) this.savedFigures.set(figure, { alt: img.alt, caption: caption?.textContent ?? null });
        img.alt = image.alt;
        const text = image.title && image.title !== image.alt ? image.title : null;
        if (text === null) caption?.remove();
        else {
          caption ??= figure.appendChild(document.createElement('figcaption'));
          caption.textContent = text;
        }
      }
    }
  }

  private restoreFigures(): void {
    for (const [figure, { alt, caption }] of this.savedFigures) {
      const img = figure.querySelector('img');
      if (img) img.alt = alt;
      const element = figure.querySelector('figcaption');
      if (caption === null) element?.remove();
      else (element ?? figure.appendChild(document.createElement('figcaption'))).textContent = caption;
    }
    this.savedFigures.clear();
  }

  private hostFor(section: HomeSection, first: boolean): SectionHost {
    const known = this.staticSections.get(section.id);
    if (known) {
      const { element } = known;
      this.show(element);
      const text = element.querySelector<HTMLElement>('.home-section__text') ?? element;
      element.classList.toggle('home-section--first', first);
      const current = element.dataset.updatedAt === section.updated_at && known.first === first && !this.isTakenOver(text);
      if (current) return { sectionId: section.id, text, barHost: this.barHost(section.id, text, 'home-admin-bar-host'), first };
      this.takeOver(section.id, text);
      return { sectionId: section.id, text, barHost: null, first };
    }
    let element = this.created.get(section.id);
    if (!element) {
      element = document.createElement('section');
      element.className = 'home-section home-section--no-images home-section--admin';
      element.dataset.homeSection = String(section.id);
      const text = document.createElement('div');
      text.className = 'home-section__text';
      element.append(text);
      this.created.set(section.id, element);
    }
    element.classList.toggle('home-section--first', first);
    element.setAttribute('aria-labelledby', `home-section-${section.id}`);
    return { sectionId: section.id, text: element.querySelector<HTMLElement>('.home-section__text') ?? element, barHost: null, first };
  }

  sectionElement(sectionId: number): HTMLElement | undefined {
    return this.created.get(sectionId) ?? this.staticSections.get(sectionId)?.element;
  }

  override restore(): void {
    this.restoreFigures();
    super.restore();
    for (const placeholder of this.placeholders) placeholder.hidden = false;
    for (const [, { element, first }] of this.staticSections) element.classList.toggle('home-section--first', first);
    // Static order back: the list's static sections in their original order.
    for (const [, { element }] of this.staticSections) this.list.append(element);
  }
}
