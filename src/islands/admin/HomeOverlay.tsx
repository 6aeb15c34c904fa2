// The admin overlay of the home page (docs/product/reading.md#home-for-admins, issue 5 item 2): the edit form at the top,
// Edit and Delete on every section, and the home image manager. Loaded only for admins by
// src/scripts/admin-overlay.ts, as a chunk of its own. Sections come from the API, so new and changed
// ones show before their publish; the static text of unchanged sections stays as it is.
import { StrictMode, useCallback, useEffect, useId, useLayoutEffect, useState, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { ensureAccountRoot } from '../../scripts/account-root.ts';
import type { FormMessage } from '../ui/form-errors.ts';
import { ContentAdminHead } from './ContentAdminHead.tsx';
import { deleteHomeSection, fetchHomeSections, type HomeSection } from '../../lib/api/home.ts';
import { HomeAdminBar } from './HomeAdminBar.tsx';
import { HomeImageManager, type HomeImageFilter } from './HomeImageManager.tsx';
import { HomePageDom } from './home-page-dom.ts';
import { HomeSectionForm } from './HomeSectionForm.tsx';
import { HomeSectionText } from './HomeSectionText.tsx';
import { failureNotice, successNotice } from './notices.ts';
import { HARD_DELETE_WARNING, useConfirm } from '../ui/use-confirm.tsx';
import { followPublish } from '../../stores/publish-status.ts';

const LOAD_FAILED = 'The home sections could not be loaded from the server; the page shows what readers see. Reload the page to try again.';

interface FormState {
  editing: HomeSection | null;
  key: number;
  focus: boolean;
}

/** The home sections from the API, laid out on the page before the browser paints. */
function useHomeSections(dom: HomePageDom) {
  const [sections, setSections] = useState<HomeSection[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);

  const reload = useCallback(
    () =>
      fetchHomeSections().then(
        (loaded) => {
          setSections(loaded);
          setLoadFailed(false);
        },
        (error: unknown) => {
          // docs/product/messages.md#error-catalogue: failed loads are logged; the static page stays as readers see it.
          console.error('Could not load the home sections', error);
          setLoadFailed(true);
        },
      ),
    [],
  );

  useEffect(() => {
    void reload();
  }, [reload]);

  useLayoutEffect(() => {
    if (sections !== null) dom.sync(sections);
  }, [dom, sections]);

  return { sections, loadFailed, reload };
}

interface HomePortalsProps {
  hosts: ReturnType<HomePageDom['hosts']>;
  sections: HomeSection[] | null;
  onEdit: (section: HomeSection) => void;
  onDelete: (section: HomeSection) => void;
  onImages: (section: HomeSection) => void;
}

/** Each section's admin bar, beside its static text or with the API's text where that changed. */
function HomePortals({ hosts, sections, onEdit, onDelete, onImages }: HomePortalsProps) {
  const byId = new Map((sections ?? []).map((section) => [section.id, section]));
  return hosts.map((host) => {
    const section = byId.get(host.sectionId);
    if (!section) return null;
    const bar = <HomeAdminBar section={section} onEdit={onEdit} onDelete={onDelete} onImages={onImages} />;
    return host.barHost
      ? createPortal(bar, host.barHost, `bar-${section.id}`)
      : createPortal(<HomeSectionText section={section} first={host.first} bar={bar} />, host.text, `full-${section.id}`);
  });
}

export function HomeOverlay({ dom }: { dom: HomePageDom }) {
  const noticeId = useId();
  const { sections, loadFailed, reload } = useHomeSections(dom);
  const hosts = useSyncExternalStore(dom.subscribe, dom.hosts);
  const [form, setForm] = useState<FormState>({ editing: null, key: 0, focus: false });
  const [images, setImages] = useState<{ open: boolean; filter: HomeImageFilter }>({ open: false, filter: 'all' });
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const { confirm, dialog: confirmDialog } = useConfirm();

  const switchForm = (editing: HomeSection | null) => setForm((previous) => ({ editing, key: previous.key + 1, focus: true }));

  const onSaved = async (section: HomeSection, message: string) => {
    setNotice({ text: message, tone: 'success' });
    setForm((previous) => ({ editing: null, key: previous.key + 1, focus: false }));
    await reload();
    // The saved section is where the admin looks next.
    requestAnimationFrame(() => dom.sectionElement(section.id)?.scrollIntoView({ block: 'start' }));
  };

  const onDelete = async (section: HomeSection) => {
    if (
      !(await confirm({
        title: 'Delete section',
        message: `Delete the home section "${section.title}"? Its images stay in the library, unassigned. ${HARD_DELETE_WARNING}`,
        confirmLabel: 'Delete',
      }))
    )
      return;
    try {
      const answer = await deleteHomeSection(section.id);
      followPublish();
      setNotice(successNotice(answer, 'Section deleted.'));
      if (form.editing?.id === section.id) switchForm(null);
      await reload();
    } catch (error) {
      setNotice(failureNotice(error));
    }
    requestAnimationFrame(() => document.getElementById(noticeId)?.focus());
  };

  const openImages = (filter: HomeImageFilter) => setImages({ open: true, filter });

  return (
    <>
      <section className="content-admin home-admin" aria-label="Manage the home page">
        <ContentAdminHead noticeId={noticeId} notice={notice} loadFailure={loadFailed ? LOAD_FAILED : null}>
          <button type="button" className="button button--small button--secondary" onClick={() => openImages('all')} aria-haspopup="dialog">
            Manage images
          </button>
        </ContentAdminHead>
        <HomeSectionForm
          key={form.key}
          editing={form.editing}
          focusOnMount={form.focus}
          onSaved={onSaved}
          onNewSection={() => switchForm(null)}
          onWrite={followPublish}
        />
      </section>
      <HomePortals
        hosts={hosts}
        sections={sections}
        onEdit={switchForm}
        onDelete={(target) => void onDelete(target)}
        onImages={(target) => openImages(target.id)}
      />
      <HomeImageManager
        open={images.open}
        onClose={() => setImages((previous) => ({ ...previous, open: false }))}
        sections={sections ?? []}
        initialFilter={images.filter}
        onChanged={reload}
        confirm={confirm}
        onWrite={followPublish}
      />
      {confirmDialog}
    </>
  );
}

/** Mounts the overlay on the home page; returns how to take it away again (logout, or the page swapped). */
export function mountHomeOverlay(main: HTMLElement): () => void {
  const container = document.createElement('div');
  container.className = 'content-admin-root';
  const list = main.querySelector('[data-home-section]')?.parentElement ?? main.querySelector('.home-sections');
  if (list && list !== main) list.before(container);
  else main.prepend(container);
  const dom = new HomePageDom(main, container);
  ensureAccountRoot().catch((error: unknown) => console.error('Could not load the loading modal', error));
  const root = createRoot(container);
  root.render(
    <StrictMode>
      <HomeOverlay dom={dom} />
    </StrictMode>,
  );
  return () => {
    root.unmount();
    container.remove();
    dom.restore();
  };
}
