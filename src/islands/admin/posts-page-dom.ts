// The posts page's static articles under the admin overlay. The overlay shows the section as the API has
// it (unpublished posts in their places, edits before their publish, deletions), reusing the static
// markup where it is still current: a static article whose data-updated-at matches the API keeps its
// rendered body and only gains the admin bar; any other gets its content from the overlay (React portals
// into these elements). Everything changed here is put back by restore(), when the overlay goes (the
// admin logged out, or the reading page is swapped).
import type { Post } from '../../lib/api/posts.ts';

export interface ArticleHost {
  postId: number;
  element: HTMLElement;
  /** The static content is current: React renders only the admin bar, into this element. */
  barHost: HTMLElement | null;
}

export class PostsPageDom {
  // The hosts are an external store for React (useSyncExternalStore): the overlay lays the DOM out in a
  // layout effect and renders its portals into whatever elements that produced.
  private current: ArticleHost[] = [];
  private readonly listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly hosts = (): ArticleHost[] => this.current;

  private publish(hosts: ArticleHost[]): void {
    this.current = hosts;
    for (const listener of this.listeners) listener();
  }

  private readonly content: HTMLElement;
  private readonly heading: HTMLElement | null;
  private readonly headingText: string;
  private readonly staticArticles = new Map<number, HTMLElement>();
  /** What static articles the overlay took over looked like. */
  private readonly savedChildren = new Map<HTMLElement, { children: Node[]; id: string; className: string }>();
  private readonly created = new Map<number, HTMLElement>();
  private readonly barHosts = new Map<number, HTMLElement>();
  private readonly hidden = new Set<HTMLElement>();

  constructor(content: HTMLElement) {
    this.content = content;
    this.heading = content.querySelector<HTMLElement>('.posts-heading, h1');
    this.headingText = this.heading?.textContent ?? '';
    for (const article of content.querySelectorAll<HTMLElement>('article[data-post-id]')) {
      const id = Number(article.dataset.postId);
      if (Number.isSafeInteger(id)) this.staticArticles.set(id, article);
    }
    // The overlay says itself when a section is empty (the static note may no longer be true).
    for (const note of content.querySelectorAll<HTMLElement>(':scope > .empty-note')) this.hide(note);
  }

  private hide(element: HTMLElement): void {
    if (!element.hidden) {
      element.hidden = true;
      this.hidden.add(element);
    }
  }

  private show(element: HTMLElement): void {
    if (this.hidden.delete(element)) element.hidden = false;
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
    for (const [id, element] of this.created) {
      if (!wanted.has(id)) {
        element.remove();
        this.created.delete(id);
      }
    }

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
      const current = staticArticle.dataset.updatedAt === post.updated_at && !this.savedChildren.has(staticArticle);
      if (current) return { postId: post.id, element: staticArticle, barHost: this.barHost(post.id, staticArticle) };
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

  private barHost(postId: number, article: HTMLElement): HTMLElement {
    let host = this.barHosts.get(postId);
    if (!host) {
      host = document.createElement('div');
      host.className = 'post-admin-bar-host';
      this.barHosts.set(postId, host);
    }
    if (host.parentElement !== article) article.prepend(host);
    return host;
  }

  /** The overlay renders this article from now on: its static content is put aside. */
  private takeOver(postId: number, article: HTMLElement): void {
    if (this.savedChildren.has(article)) return;
    this.barHosts.get(postId)?.remove();
    this.barHosts.delete(postId);
    this.savedChildren.set(article, { children: [...article.childNodes], id: article.id, className: article.className });
    article.replaceChildren();
  }

  private describe(article: HTMLElement, post: Post): void {
    article.id = post.title_slug;
    article.className = post.published ? 'post post--admin' : 'post post--admin post--unpublished';
    article.dataset.postId = String(post.id);
    article.setAttribute('aria-labelledby', `${post.title_slug}-title`);
  }

  articleOf(postId: number): HTMLElement | undefined {
    return this.created.get(postId) ?? this.staticArticles.get(postId);
  }

  restore(): void {
    this.current = [];
    for (const element of this.created.values()) element.remove();
    for (const host of this.barHosts.values()) host.remove();
    for (const [article, saved] of this.savedChildren) {
      article.replaceChildren(...saved.children);
      article.id = saved.id;
      article.className = saved.className;
    }
    for (const element of this.hidden) element.hidden = false;
    this.setHeading(null);
    this.created.clear();
    this.barHosts.clear();
    this.savedChildren.clear();
    this.hidden.clear();
  }
}
