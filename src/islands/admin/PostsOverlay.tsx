// The admin overlay of the posts screens (docs/product/reading.md#posts-screens-for-admins, issue 5 item 2). Loaded only for admins
// by src/scripts/admin-overlay.ts, as a chunk of its own (readers never download it). It loads every
// section and post from the API, never from the static HTML, so unpublished posts and changes that are
// not live yet appear in their places; the static articles that are still current stay as they are.
import { StrictMode, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { NAMESPACE_TITLES } from '../../lib/posts.ts';
import { NAMESPACE_LIST } from '../../../common/snapshot-types.ts';
import { ensureAccountRoot } from '../../scripts/account-root.ts';
import type { FormMessage } from '../ui/form-errors.ts';
import { AdminArticle } from './AdminArticle.tsx';
import { ContentAdminHead } from './ContentAdminHead.tsx';
import { deletePost, fetchPosts, type Namespace, type Post, type SectionWithPosts } from '../../lib/api/posts.ts';
import { fetchFiles, type ExtraFile } from '../../lib/api/files.ts';
import { failureNotice, successNotice } from './notices.ts';
import { PostAdminBar } from './PostAdminBar.tsx';
import { PostForm } from './PostForm.tsx';
import { PostsPageDom } from './posts-page-dom.ts';
import { SectionPanel } from './SectionPanel.tsx';
import { useTypographer } from './use-markdown.ts';
import { HARD_DELETE_WARNING, useConfirm } from '../ui/use-confirm.tsx';
import { followPublish } from '../../stores/publish-status.ts';
import { POST_PLACED_EVENT } from '../../scripts/page-lifecycle.ts';

const LOAD_FAILED = 'The posts could not be loaded from the server; the page shows what readers see. Reload the page to try again.';

/** The section has its own static page (it was there at the last publish): the sidebar links to it. */
function hasStaticPage(slug: string): boolean {
  return document.querySelector(`[data-posts-sidebar] a[data-section-link="${CSS.escape(slug)}"]`) !== null;
}

interface PostsOverlayProps {
  ns: Namespace;
  /** The section the static page shows (undefined when the site had none at the last publish). */
  staticSlug: string | undefined;
  dom: PostsPageDom;
}

interface FormState {
  open: boolean;
  editing: Post | null;
  /** A new key remounts the form, so each opening starts from its post's values. */
  key: number;
}

/** Every section with its posts (unpublished ones included) and the namespace's files, from the API. */
function usePostsData(ns: Namespace, staticSlug: string | undefined) {
  const [sections, setSections] = useState<SectionWithPosts[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [shownId, setShownId] = useState<number | null>(null);
  const [files, setFiles] = useState<ExtraFile[]>([]);

  const reload = useCallback(
    () =>
      fetchPosts(ns).then(
        (loaded) => {
          setSections(loaded);
          setLoadFailed(false);
          // First load: the section the static page shows, or the first one when it had none.
          setShownId(
            (current) =>
              current ?? (loaded.find((section) => section.title_slug === staticSlug) ?? (staticSlug === undefined ? loaded[0] : undefined))?.id ?? null,
          );
        },
        (error: unknown) => {
          // docs/product/messages.md#error-catalogue: failed loads are logged; the static page stays as readers see it.
          console.error('Could not load the posts', error);
          setLoadFailed(true);
        },
      ),
    [ns, staticSlug],
  );

  const reloadFiles = useCallback(
    () =>
      fetchFiles(ns).then(setFiles, (error: unknown) => {
        console.error('Could not load the files', error);
      }),
    [ns],
  );

  useEffect(() => {
    void reload().then(reloadFiles);
  }, [reload, reloadFiles]);

  return { sections, loadFailed, shownId, setShownId, reload, files, reloadFiles };
}

/**
 * A post saved into another section's page: the overlay of that page (a new component, after the swap or
 * a page load) shows it. Kept in sessionStorage so a full page load (no Navigation API) keeps it too.
 */
const ARRIVING_POST_KEY = 'admin:saved-post';

function rememberArrivingPost(ns: Namespace, postId: number): void {
  try {
    sessionStorage.setItem(ARRIVING_POST_KEY, JSON.stringify({ ns, postId }));
  } catch {
    // Storage refused (private mode): the page opens at the section's first post instead.
  }
}

function takeArrivingPost(ns: Namespace): number | null {
  try {
    const raw = sessionStorage.getItem(ARRIVING_POST_KEY);
    if (raw === null) return null;
    sessionStorage.removeItem(ARRIVING_POST_KEY);
    const saved = JSON.parse(raw) as { ns?: unknown; postId?: unknown };
    return saved.ns === ns && typeof saved.postId === 'number' ? saved.postId : null;
  } catch {
    return null;
  }
}

/** After a save: the saved article is shown, with the address naming it. Returns what to focus next. */
function useFocusSavedPost(dom: PostsPageDom, hosts: readonly { postId: number }[], ns: Namespace): (postId: number) => void {
  // Arriving from a save on another section's page: that post is the one to show. Read once, when this
  // overlay mounts (the page being left re-renders after the save, and must not take it).
  const [arriving] = useState(() => takeArrivingPost(ns));
  const focusPost = useRef<number | null>(arriving);
  useEffect(() => {
    const postId = focusPost.current;
    if (postId === null || !hosts.some((host) => host.postId === postId)) return;
    focusPost.current = null;
    const article = dom.articleOf(postId);
    if (!article) return;
    history.replaceState(history.state, '', `${location.pathname}${location.search}#${encodeURIComponent(article.id)}`);
    article.tabIndex = -1;
    article.scrollIntoView({ block: 'start', behavior: 'instant' });
    article.focus({ preventScroll: true });
    // The reader's scroll-spy keeps this post as the one named while the admin stays put.
    document.dispatchEvent(new Event(POST_PLACED_EVENT));
  }, [dom, hosts]);
  return (postId) => {
    focusPost.current = postId;
  };
}

/** Says why no post is listed: no sections at all, the page's section is gone, or it has no posts. */
function EmptyNote({ sections, shown }: { sections: SectionWithPosts[] | null; shown: SectionWithPosts | null }) {
  if (sections === null) return null;
  if (sections.length === 0) return <p className="empty-note">No sections yet: add one with Add Section.</p>;
  if (shown === null) return <p className="empty-note">This section no longer exists; its page goes with the next publish.</p>;
  return shown.posts.length === 0 ? <p className="empty-note">No posts in this section yet.</p> : null;
}

interface PostPortalsProps {
  hosts: ReturnType<PostsPageDom['hosts']>;
  posts: Post[];
  onEdit: (post: Post) => void;
  onDelete: (post: Post) => void;
}

/** Each article's admin bar (static articles still current) or the whole article from the API. */
function PostPortals({ hosts, posts, onEdit, onDelete }: PostPortalsProps) {
  const postById = new Map(posts.map((post) => [post.id, post]));
  return hosts.map((host) => {
    const post = postById.get(host.postId);
    if (!post) return null;
    return host.barHost
      ? createPortal(<PostAdminBar post={post} onEdit={onEdit} onDelete={onDelete} />, host.barHost, `bar-${post.id}`)
      : createPortal(<AdminArticle post={post} onEdit={onEdit} onDelete={onDelete} />, host.element, `full-${post.id}`);
  });
}

/** The page a saved post belongs on when that is another section's own page; null: it is shown here. */
function otherSectionPage(ns: Namespace, post: Post, sections: SectionWithPosts[] | null, shownId: number | null): string | null {
  const section = sections?.find((entry) => entry.id === post.section_id);
  if (post.section_id === shownId || !section || !hasStaticPage(section.title_slug)) return null;
  return `/${ns}/${section.title_slug}#${encodeURIComponent(post.title_slug)}`;
}

function usePostFormState() {
  const [form, setForm] = useState<FormState>({ open: false, editing: null, key: 0 });
  const openForm = useCallback((editing: Post | null) => setForm((previous) => ({ open: true, editing, key: previous.key + 1 })), []);
  const closeForm = useCallback(() => setForm((previous) => ({ ...previous, open: false, editing: null })), []);
  return { form, openForm, closeForm };
}

/** Lays the shown section's articles out as the API has them, before the browser paints; returns them. */
function useArticlesLayout(
  dom: PostsPageDom,
  sections: SectionWithPosts[] | null,
  shown: SectionWithPosts | null,
  onPick: (sectionId: number) => void,
): Post[] {
  const posts = useMemo(() => shown?.posts ?? [], [shown]);
  // Titles are written as the static build writes them (issue 28, 2.11); until that small module has
  // loaded, the static page's own titles stay, which are already so.
  const typographic = useTypographer();
  useLayoutEffect(() => {
    if (sections === null) return;
    dom.sync(posts);
  }, [dom, sections, posts]);
  useLayoutEffect(() => {
    if (sections === null || typographic === null) return;
    dom.setHeading(shown ? typographic(shown.title) : null);
    dom.syncSidebar({ sections, shownId: shown?.id ?? null, posts, typographic }, onPick);
  }, [dom, sections, shown, posts, typographic, onPick]);
  return posts;
}

export function PostsOverlay({ ns, staticSlug, dom }: PostsOverlayProps) {
  const noticeId = useId();
  const { sections, loadFailed, shownId, setShownId, reload, files, reloadFiles } = usePostsData(ns, staticSlug);
  const hosts = useSyncExternalStore(dom.subscribe, dom.hosts);
  const { form, openForm, closeForm } = usePostFormState();
  const [panelOpen, setPanelOpen] = useState(false);
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const focusPostLater = useFocusSavedPost(dom, hosts, ns);
  const { confirm, dialog: confirmDialog } = useConfirm();

  const shown = sections?.find((section) => section.id === shownId) ?? null;
  const posts = useArticlesLayout(dom, sections, shown, setShownId);

  const onSaved = async (post: Post, message: string) => {
    setNotice({ text: message, tone: 'success' });
    closeForm();
    const page = otherSectionPage(ns, post, sections, shownId);
    // Its section has a page of its own: go there (a swap of <main>); the overlay there shows the post.
    if (page) {
      rememberArrivingPost(ns, post.id);
      return location.assign(page);
    }
    // Same section, or one with no page yet: shown here.
    focusPostLater(post.id);
    setShownId(post.section_id);
    await reload();
  };

  const onDelete = async (post: Post) => {
    if (!(await confirm({ title: 'Delete post', message: `Delete the post "${post.title}"? ${HARD_DELETE_WARNING}`, confirmLabel: 'Delete' }))) return;
    try {
      const answer = await deletePost(ns, post);
      followPublish();
      setNotice(successNotice(answer, 'Post deleted.'));
      if (form.editing?.id === post.id) closeForm();
      await reload();
    } catch (error) {
      setNotice(failureNotice(error));
    }
    // The pressed button is gone: the notice says what happened.
    requestAnimationFrame(() => document.getElementById(noticeId)?.focus());
  };

  const title = NAMESPACE_TITLES[ns];

  return (
    <>
      <section className="content-admin" aria-label={`Manage ${title}`}>
        <ContentAdminHead noticeId={noticeId} notice={notice} loadFailure={loadFailed ? LOAD_FAILED : null}>
          <button type="button" className="button button--small" onClick={() => setPanelOpen(true)} aria-haspopup="dialog">
            Add Section
          </button>
          <button type="button" className="button button--small" onClick={() => openForm(null)} disabled={sections === null}>
            Add Post
          </button>
        </ContentAdminHead>
        {shown && !hasStaticPage(shown.title_slug) && (
          <p className="content-admin__note">
            This section is not on the site yet: its page /{ns}/{shown.title_slug} appears after the publish.
          </p>
        )}
        {form.open && sections && (
          <PostForm
            key={form.key}
            ns={ns}
            sections={sections}
            files={files}
            reloadFiles={reloadFiles}
            editing={form.editing}
            defaultSectionId={shownId}
            onSaved={onSaved}
            onNewPost={() => openForm(null)}
            onClose={closeForm}
            confirm={confirm}
            onWrite={followPublish}
          />
        )}
        <EmptyNote sections={sections} shown={shown} />
      </section>
      <PostPortals hosts={hosts} posts={posts} onEdit={openForm} onDelete={(post) => void onDelete(post)} />
      <SectionPanel
        ns={ns}
        open={panelOpen}
        onClose={() => setPanelOpen(false)}
        sections={sections ?? []}
        onChanged={reload}
        confirm={confirm}
        onWrite={followPublish}
      />
      {confirmDialog}
    </>
  );
}

/** Mounts the overlay on a posts page; returns how to take it away again (logout, or the page swapped). */
export function mountPostsOverlay(page: HTMLElement): () => void {
  const content = page.querySelector<HTMLElement>('[data-posts-content]');
  const ns = NAMESPACE_LIST.find((name) => name === page.dataset.namespace);
  if (!content || !ns) return () => {};
  const dom = new PostsPageDom(content, page.querySelector<HTMLElement>('[data-posts-sidebar]'), ns);
  const container = document.createElement('div');
  container.className = 'content-admin-root';
  content.prepend(container);
  // Uploads and downloads report their progress into the loading modal, which lives in the account root.
  ensureAccountRoot().catch((error: unknown) => console.error('Could not load the loading modal', error));
  const root = createRoot(container);
  root.render(
    <StrictMode>
      <PostsOverlay ns={ns} staticSlug={page.dataset.section || undefined} dom={dom} />
    </StrictMode>,
  );
  return () => {
    root.unmount();
    container.remove();
    dom.restore();
  };
}
