// The posts page's static articles under the admin overlay. The overlay shows the section as the API has
// it (unpublished posts in their places, edits before their publish, deletions), reusing the static
// markup where it is still current: a static article whose data-updated-at matches the API keeps its
// rendered body and only gains the admin bar; any other gets its content from the overlay (React portals
// into these elements). Everything changed here is put back by restore(), when the overlay goes (the
// admin logged out, or the reading page is swapped); the store and the bookkeeping are the one
// OverlaidPageDom's (overlaid-page-dom.ts), shared with the home page's.
import type { Post, Section } from '../../lib/api/posts.ts';
import { OverlaidPageDom } from './overlaid-page-dom.ts';

export interface ArticleHost {
  postId: number;
  element: HTMLElement;
  /** The static content is current: React renders only the admin bar, into this element. */
  barHost: HTMLElement | null;
}

export class PostsPageDom extends OverlaidPageDom<ArticleHost> {
  private readonly content: HTMLElement;
  private readonly heading: HTMLElement | null;
  private readonly headingText: string;
  private readonly staticArticles = new Map<number, HTMLElement>();

  private readonly sidebar: HTMLElement | null;
  /** The sidebar's list as it was, and the list the overlay made when the site had no sections. */
  private sidebarItems: Element[] | null = null;
  private createdList: HTMLElement | null = null;

  constructor(content: HTMLElement, sidebar: HTMLElement | null = null) {
    super();
    this.content = content;
    this.sidebar = sidebar;
    this.heading = content.querySelector<HTMLElement>('.posts-heading, h1');
    this.headingText = this.heading?.textContent ?? '';
    for (const article of content.querySelectorAll<HTMLElement>('article[data-post-id]')) {
      const id = Number(article.dataset.postId);
      if (Number.isSafeInteger(id)) this.staticArticles.set(id, article);
    }
    // The overlay says itself when a section is empty (the static note may no longer be true).
    for (const note of content.querySelectorAll<HTMLElement>(':scope > .empty-note')) this.hide(note);
  }

  setHeading(text: string | null): void {
    if (this.heading) this.heading.textContent = text ?? this.headingText;
  }

  /** Static article ids, so the overlay knows which posts readers currently see on this page. */
  staticIds(): ReadonlySet<number> {
    return new Set(this.staticArticles.keys());
  }

  /** One element per post, in the posts' order after the heading; publishes where React renders. */
  sync(posts: readonly Post[]): void {
    const hosts: ArticleHost[] = [];
    const wanted = new Set(posts.map((post) => post.id));
    for (const [id, element] of this.staticArticles) if (!wanted.has(id)) this.hide(element);
    this.dropCreated(wanted);

    let anchor: Element | null = this.heading;
    for (const post of posts) {
      const host = this.hostFor(post);
      if (anchor) {
        if (anchor.nextElementSibling !== host.element) anchor.after(host.element);
      } else if (!host.element.isConnected) this.content.append(host.element);
      anchor = host.element;
      hosts.push(host);
    }
    this.publish(hosts);
  }

  private hostFor(post: Post): ArticleHost {
    const staticArticle = this.staticArticles.get(post.id);
    if (staticArticle) {
      this.show(staticArticle);
      const current = staticArticle.dataset.updatedAt === post.updated_at && !this.isTakenOver(staticArticle);
      if (current) return { postId: post.id, element: staticArticle, barHost: this.barHost(post.id, staticArticle, 'post-admin-bar-host') };
      this.takeOver(post.id, staticArticle);
      this.describe(staticArticle, post);
      return { postId: post.id, element: staticArticle, barHost: null };
    }
    let element = this.created.get(post.id);
    if (!element) {
      element = document.createElement('article');
      element.dataset.adminArticle = '';
      this.created.set(post.id, element);
    }
    this.describe(element, post);
    return { postId: post.id, element, barHost: null };
  }

  private describe(article: HTMLElement, post: Post): void {
    article.id = post.title_slug;
    article.className = post.published ? 'post post--admin' : 'post post--admin post--unpublished';
    article.dataset.postId = String(post.id);
    article.setAttribute('aria-labelledby', `${post.title_slug}-title`);
  }

  /**
   * The sidebar lists the sections as the API has them, so a section added, renamed or deleted shows at
   * once on the admin's own page (issue 14, part 2). A section not published yet has no page: its entry
   * is marked so and `onPick` shows it here instead of following the link.
   */
  syncSidebar(sections: readonly Pick<Section, 'id' | 'title' | 'title_slug'>[], shownId: number | null, onPick: (sectionId: number) => void): void {
    if (!this.sidebar) return;
    let list = this.sidebar.querySelector<HTMLElement>('ul.section-list');
    if (!list) {
      if (sections.length === 0) return;
      list = document.createElement('ul');
      list.className = 'section-list';
      this.createdList = list;
      const note = this.sidebar.querySelector<HTMLElement>(':scope > .empty-note');
      if (note) this.hide(note);
      this.sidebar.querySelector('.posts-sidebar__title')?.after(list);
    }
    this.sidebarItems ??= [...list.children];
    const items: HTMLElement[] = [];
    for (const section of sections) {
      const staticLink = list.querySelector<HTMLAnchorElement>(`a[data-section-link="${CSS.escape(section.title_slug)}"]`);
      const item = staticLink?.closest<HTMLElement>('li') ?? this.newSidebarItem(section, onPick);
      const link = item.querySelector<HTMLAnchorElement>('a');
      if (link?.firstChild?.nodeType === Node.TEXT_NODE && link.firstChild.textContent !== section.title) link.firstChild.textContent = section.title;
      if (link?.dataset.adminSectionLink !== undefined) {
        if (section.id === shownId) link.setAttribute('aria-current', 'page');
        else link.removeAttribute('aria-current');
      }
      items.push(item);
    }
    // Static entries of deleted sections go; the rest in the API's order.
    list.replaceChildren(...items);
  }

  private newSidebarItem(section: Pick<Section, 'id' | 'title' | 'title_slug'>, onPick: (sectionId: number) => void): HTMLElement {
    const item = document.createElement('li');
    item.className = 'section-list__item';
    const link = document.createElement('a');
    link.href = location.pathname;
    link.dataset.adminSectionLink = section.title_slug;
    link.append(section.title);
    const note = document.createElement('span');
    note.className = 'section-list__note';
    note.textContent = ' (not on the site yet)';
    link.append(note);
    link.addEventListener('click', (event) => {
      event.preventDefault();
      onPick(section.id);
    });
    item.append(link);
    return item;
  }

  private restoreSidebar(): void {
    const list = this.sidebar?.querySelector<HTMLElement>('ul.section-list');
    if (list && this.sidebarItems) list.replaceChildren(...this.sidebarItems);
    this.createdList?.remove();
    this.createdList = null;
    this.sidebarItems = null;
  }

  articleOf(postId: number): HTMLElement | undefined {
    return this.created.get(postId) ?? this.staticArticles.get(postId);
  }

  override restore(): void {
    this.restoreSidebar();
    super.restore();
    this.setHeading(null);
  }
}
