// The admin overlay of the posts screens (SPEC.md 2.5 admin side, issue 5 item 2). Loaded only for admins
// by src/scripts/admin-overlay.ts, as a chunk of its own (readers never download it). It loads every
// section and post from the API, never from the static HTML, so unpublished posts and changes that are
// not live yet appear in their places; the static articles that are still current stay as they are.
import { StrictMode, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { NAMESPACE_TITLES } from '../../lib/posts.ts';
import { NAMESPACE_LIST } from '../../lib/snapshot-types.ts';
import { ensureAccountRoot } from '../../scripts/account-root.ts';
import { Message } from '../ui/Message.tsx';
import type { FormMessage } from '../ui/form-errors.ts';
import { AdminArticle } from './AdminArticle.tsx';
import { deletePost, fetchFiles, fetchPosts, type ExtraFile, type Namespace, type Post, type SectionWithPosts } from './content-api.ts';
import { failureNotice, successNotice } from './notices.ts';
import { PostAdminBar } from './PostAdminBar.tsx';
import { PostForm } from './PostForm.tsx';
import { PostsPageDom } from './posts-page-dom.ts';
import { PublishState } from '../ui/PublishState.tsx';
import { SectionPanel } from './SectionPanel.tsx';
import { HARD_DELETE_WARNING, useConfirm } from '../ui/use-confirm.tsx';
import { followPublish } from '../../stores/publish-status.ts';

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

export function PostsOverlay({ ns, staticSlug, dom }: PostsOverlayProps) {
  const noticeId = useId();
  const [sections, setSections] = useState<SectionWithPosts[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [shownId, setShownId] = useState<number | null>(null);
  const hosts = useSyncExternalStore(dom.subscribe, dom.hosts);
  const [form, setForm] = useState<FormState>({ open: false, editing: null, key: 0 });
  const [panelOpen, setPanelOpen] = useState(false);
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const [files, setFiles] = useState<ExtraFile[]>([]);
  const focusPost = useRef<number | null>(null);
  const { confirm, dialog: confirmDialog } = useConfirm();

  const reload = useCallback(
    () =>
      fetchPosts(ns).then(
        (loaded) => {
          setSections(loaded);
          setLoadFailed(false);
          // First load: the section the static page shows, or the first one when it had none.
          setShownId((current) => current ?? (loaded.find((section) => section.title_slug === staticSlug) ?? (staticSlug === undefined ? loaded[0] : undefined))?.id ?? null);
        },
        (error: unknown) => {
          // SPEC.md 8: failed loads are logged; the static page stays as readers see it.
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

  const shown = sections?.find((section) => section.id === shownId) ?? null;
  const posts = useMemo(() => shown?.posts ?? [], [shown]);

  // Lay the articles out as the API has them, before the browser paints.
  useLayoutEffect(() => {
    if (sections === null) return;
    dom.sync(posts);
    dom.setHeading(shown?.title ?? null);
  }, [dom, sections, posts, shown]);

  // After a save: the saved article is shown, with the address naming it.
  useEffect(() => {
    const postId = focusPost.current;
    if (postId === null || !hosts.some((host) => host.postId === postId)) return;
    focusPost.current = null;
    const article = dom.articleOf(postId);
    if (!article) return;
    history.replaceState(history.state, '', `${location.pathname}${location.search}#${encodeURIComponent(article.id)}`);
    article.tabIndex = -1;
    article.scrollIntoView({ block: 'start' });
    article.focus({ preventScroll: true });
  }, [dom, hosts]);

  const openForm = (editing: Post | null) => setForm((previous) => ({ open: true, editing, key: previous.key + 1 }));
  const closeForm = () => setForm((previous) => ({ ...previous, open: false, editing: null }));

  const onSaved = async (post: Post, message: string) => {
    setNotice({ text: message, tone: 'success' });
    closeForm();
    const section = sections?.find((entry) => entry.id === post.section_id);
    if (post.section_id !== shownId && section && hasStaticPage(section.title_slug)) {
      // Its section has a page of its own: go there (a swap of <main>, the overlay follows).
      location.assign(`/${ns}/${section.title_slug}#${encodeURIComponent(post.title_slug)}`);
      return;
    }
    // Same section, or one with no page yet: shown here.
    focusPost.current = post.id;
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
  const postById = new Map(posts.map((post) => [post.id, post]));
  const edit = (post: Post) => openForm(post);
  const remove = (post: Post) => void onDelete(post);

  return (
    <>
      <section className="content-admin" aria-label={`Manage ${title}`}>
        <div className="content-admin__bar">
          <span className="content-admin__label">Admin</span>
          <button type="button" className="button button--small" onClick={() => setPanelOpen(true)} aria-haspopup="dialog">
            Add Section
          </button>
          <button type="button" className="button button--small" onClick={() => openForm(null)} disabled={sections === null}>
            Add Post
          </button>
          <PublishState />
        </div>
        <div className="content-admin__notice" id={noticeId} tabIndex={-1}>
          <Message message={notice} />
        </div>
        {loadFailed && (
          <p className="notice notice--warning" role="alert">
            {LOAD_FAILED}
          </p>
        )}
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
        {sections !== null && sections.length === 0 && <p className="empty-note">No sections yet: add one with Add Section.</p>}
        {sections !== null && shown === null && sections.length > 0 && <p className="empty-note">This section no longer exists; its page goes with the next publish.</p>}
        {shown && posts.length === 0 && <p className="empty-note">No posts in this section yet.</p>}
      </section>
      {hosts.map((host) => {
        const post = postById.get(host.postId);
        if (!post) return null;
        return host.barHost
          ? createPortal(<PostAdminBar post={post} onEdit={edit} onDelete={remove} />, host.barHost, `bar-${post.id}`)
          : createPortal(<AdminArticle post={post} onEdit={edit} onDelete={remove} />, host.element, `full-${post.id}`);
      })}
      <SectionPanel ns={ns} open={panelOpen} onClose={() => setPanelOpen(false)} sections={sections ?? []} onChanged={reload} confirm={confirm} onWrite={followPublish} />
      {confirmDialog}
    </>
  );
}

/** Mounts the overlay on a posts page; returns how to take it away again (logout, or the page swapped). */
export function mountPostsOverlay(page: HTMLElement): () => void {
  const content = page.querySelector<HTMLElement>('[data-posts-content]');
  const ns = NAMESPACE_LIST.find((name) => name === page.dataset.namespace);
  if (!content || !ns) return () => {};
  const dom = new PostsPageDom(content);
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
