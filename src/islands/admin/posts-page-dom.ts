// The posts page's static articles under the admin overlay. The overlay shows the section as the API has
// it (unpublished posts in their places, edits before their publish, deletions), reusing the static
// markup where it is still current: a static article whose data-updated-at matches the API keeps its
// rendered body and only gains the admin bar; any other gets its content from the overlay (React portals
// into these elements). Everything changed here is put back by restore(), when the overlay goes (the
// admin logged out, or the reading page is swapped); the store and the bookkeeping are the one
// OverlaidPageDom's (overlaid-page-dom.ts), shared with the home page's.
import type { Post, Section } from '../../lib/api/posts.ts';
import { sidebarPosts } from '../../lib/posts.ts';
import type { Namespace } from '../../../common/snapshot-types.ts';
import { OverlaidPageDom } from './overlaid-page-dom.ts';

/** A title as the static build writes it (common/markdown/typography.ts), once that module has loaded. */
export type Typographer = (text: string) => string;

/** What the sidebar is laid out from: the sections as the API has them, the one shown and its posts. */
export interface SidebarState {
  sections: readonly Pick<Section, 'id' | 'title' | 'title_slug'>[];
  shownId: number | null;
  posts: readonly Pick<Post, 'id' | 'title' | 'title_slug' | 'published'>[];
  typographic: Typographer;
}

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
  /** The shown section's post links as the static page had them, and the post each one names. */
  private readonly staticPostList: HTMLElement | null;
  private readonly staticPostItems: Element[];
  private readonly postOfLink = new Map<HTMLAnchorElement, number>();
  private readonly createdPostItems = new Map<number, HTMLElement>();
  /** Sidebar links whose text or target the overlay changed, as they were (put back by restore()). */
  private readonly changedLinks = new Map<HTMLAnchorElement, { text: string; href: string; slug: string | undefined }>();

  private readonly namespace: Namespace | null;

  constructor(content: HTMLElement, sidebar: HTMLElement | null = null, namespace: Namespace | null = null) {
    super();
    this.namespace = namespace;
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
    // A static post link names its post by the slug its article had when the page was built.
    this.staticPostList = sidebar?.querySelector<HTMLElement>('ul.post-list') ?? null;
    this.staticPostItems = this.staticPostList ? [...this.staticPostList.children] : [];
    const postIdOfSlug = new Map([...this.staticArticles].map(([id, article]) => [article.id, id]));
    for (const link of this.staticPostList?.querySelectorAll<HTMLAnchorElement>('a[data-post-link]') ?? []) {
      const id = postIdOfSlug.get(link.dataset.postLink ?? '');
      if (id !== undefined) this.postOfLink.set(link, id);
    }
  }

  /** The section's title as the page's heading (already typographic), or the static one back with null. */
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
   * is marked so and `onPick` shows it here instead of following the link. Titles are written as the
   * static build writes them (typographic quotes and dashes), so after a publish the page reads as a fresh
   * load of it (issue 28, 2.11).
   */
  syncSidebar(state: SidebarState, onPick: (sectionId: number) => void): void {
    const { sections, shownId, typographic } = state;
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
      const item = staticLink?.closest<HTMLElement>('li') ?? this.newSidebarItem(section, typographic, onPick);
      const link = item.querySelector<HTMLAnchorElement>('a');
      if (link) this.setLinkText(link, typographic(section.title));
      if (link?.dataset.adminSectionLink !== undefined) {
        if (section.id === shownId) link.setAttribute('aria-current', 'page');
        else link.removeAttribute('aria-current');
      }
      items.push(item);
    }
    // Static entries of deleted sections go; the rest in the API's order.
    list.replaceChildren(...items);
    this.syncPostLinks(state);
  }

  /**
   * The shown section's post links, as the static build lists them: its published posts in order, each
   * under its current title and slug. Only where the static page has the list (the section it was built
   * for): a static link is kept and updated, a post without one gets a new one, the others are hidden.
   */
  private syncPostLinks({ sections, shownId, posts, typographic }: SidebarState): void {
    const list = this.staticPostList;
    if (!list || !this.namespace) return;
    const shownSlug = sections.find((section) => section.id === shownId)?.title_slug;
    const listSlug = list.closest('li')?.querySelector<HTMLAnchorElement>(':scope > a[data-section-link]')?.dataset.sectionLink;
    // Another section shown here: the list is not of its posts.
    if (shownSlug === undefined || shownSlug !== listSlug) return this.hide(list);
    this.show(list);
    const linked = new Map([...this.postOfLink].map(([link, id]) => [id, link]));
    const wanted = sidebarPosts(
      this.namespace,
      posts.filter((post) => post.published),
    );
    const wantedIds = new Set(wanted.map((post) => post.id));
    const items: Element[] = [];
    for (const post of wanted) {
      const link = linked.get(post.id) ?? this.createdPostLink(post.id);
      const item = link.closest('li') ?? link;
      this.setLinkText(link, typographic(post.title), post.title_slug);
      if (item instanceof HTMLElement) this.show(item);
      items.push(item);
    }
    for (const [link, id] of this.postOfLink) {
      const item = link.closest<HTMLElement>('li');
      if (item && !wantedIds.has(id)) this.hide(item);
    }
    for (const [id, item] of this.createdPostItems) {
      if (!wantedIds.has(id)) {
        item.remove();
        this.createdPostItems.delete(id);
      }
    }
    list.replaceChildren(...items, ...this.staticPostItems.filter((item) => !items.includes(item)));
  }

  private createdPostLink(postId: number): HTMLAnchorElement {
    let item = this.createdPostItems.get(postId);
    if (!item) {
      item = document.createElement('li');
      item.append(document.createElement('a'));
      this.createdPostItems.set(postId, item);
    }
    return item.querySelector('a')!;
  }

  /** The link's own text (not a note inside it) and, for a post link, its target; the old ones kept for restore(). */
  private setLinkText(link: HTMLAnchorElement, text: string, postSlug?: string): void {
    const first = link.firstChild;
    const current = first?.nodeType === Node.TEXT_NODE ? (first.textContent ?? '') : '';
    const unchanged = current === text && (postSlug === undefined || link.dataset.postLink === postSlug);
    if (unchanged) return;
    if (link.isConnected && !this.changedLinks.has(link) && first?.nodeType === Node.TEXT_NODE) {
      this.changedLinks.set(link, { text: current, href: link.getAttribute('href') ?? '', slug: link.dataset.postLink });
    }
    if (first?.nodeType === Node.TEXT_NODE) first.textContent = text;
    else link.prepend(text);
    if (postSlug !== undefined) {
      link.href = `#${postSlug}`;
      link.dataset.postLink = postSlug;
    }
  }

  private newSidebarItem(section: Pick<Section, 'id' | 'title' | 'title_slug'>, typographic: Typographer, onPick: (sectionId: number) => void): HTMLElement {
    const item = document.createElement('li');
    item.className = 'section-list__item';
    const link = document.createElement('a');
    link.href = location.pathname;
    link.dataset.adminSectionLink = section.title_slug;
    link.append(typographic(section.title));
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
    for (const [link, was] of this.changedLinks) {
      if (link.firstChild) link.firstChild.textContent = was.text;
      link.setAttribute('href', was.href);
      if (was.slug !== undefined) link.dataset.postLink = was.slug;
    }
    this.changedLinks.clear();
    for (const item of this.createdPostItems.values()) item.remove();
    this.createdPostItems.clear();
    this.staticPostList?.replaceChildren(...this.staticPostItems);
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
