// The admin's in-place editor of a legal page (issue 28, section 1: /privacy, /terms, /imprint), the overlay pattern of the
// home page (docs/decisions/0015-content-admin-overlay.md): the Admin bar with Edit and the publish state above the page,
// the editor frame and markdown editor of the content forms, and the page's text from the API once it differs from the
// build (rendered with the build's pipeline), so a save shows at once and the publish follows. Loaded only for admins by
// src/scripts/admin-overlay.ts.
import { StrictMode, useEffect, useId, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { fetchLegalPage, saveLegalPage, type LegalPage, type LegalPageSlug } from '../../lib/api/site-pages.ts';
import { followPublish } from '../../stores/publish-status.ts';
import { Field } from '../ui/Field.tsx';
import type { FormMessage } from '../ui/form-errors.ts';
import { ContentAdminHead } from './ContentAdminHead.tsx';
import { EditorForm, useEditorForm } from './EditorForm.tsx';
import { MarkdownEditor } from './MarkdownEditor.tsx';
import { useRenderedMarkdown } from './use-markdown.ts';

const LOAD_FAILED = 'The page could not be loaded from the server; it shows what readers see. Reload the page to try again.';

function LegalPageForm({ page, onSaved, onClose }: { page: LegalPage; onSaved: (page: LegalPage, message: string) => void; onClose: () => void }) {
  const [title, setTitle] = useState(page.title);
  const [body, setBody] = useState(page.body);
  const formRef = useRef<HTMLFormElement>(null);
  const form = useEditorForm(formRef, ['title', 'body'], true);
  const save = async () => {
    const answer = await saveLegalPage(page.slug, { title, body });
    followPublish();
    onSaved(answer.page, answer.message);
  };
  return (
    <EditorForm
      form={form}
      formRef={formRef}
      className="post-form legal-form"
      data={{ 'data-legal-form': page.slug }}
      heading={`Edit page: ${page.title}`}
      newButton={null}
      submitLabel="Save page"
      onClose={onClose}
      onSubmit={save}
    >
      <Field label="Title" name="title" value={title} onChange={setTitle} error={form.errors.title} autoFocusOnOpen />
      <MarkdownEditor label="Body" name="body" value={body} onChange={setBody} error={form.errors.body} rows={16} />
    </EditorForm>
  );
}

/** The page as the database has it, where the build shows an older text. */
function LegalPageText({ page }: { page: LegalPage }) {
  const html = useRenderedMarkdown(page.body);
  return (
    <div data-legal-live>
      <h1 id="legal-page-title">{page.title}</h1>
      {html === null ? <div className="prose md-editor__plain">{page.body}</div> : <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />}
    </div>
  );
}

interface LegalPageOverlayProps {
  slug: LegalPageSlug;
  /** The built page's data-updated-at. */
  builtAt: string;
  /** Shows or hides the built text (the page's DOM stays the mount function's to change). */
  showBuiltText: (shown: boolean) => void;
}

export function LegalPageOverlay({ slug, builtAt, showBuiltText }: LegalPageOverlayProps) {
  const noticeId = useId();
  const [page, setPage] = useState<LegalPage | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<FormMessage | null>(null);

  useEffect(() => {
    fetchLegalPage(slug).then(
      (loaded) => (loaded ? setPage(loaded) : setLoadFailed(true)),
      (error: unknown) => {
        console.error('Could not load the page', error);
        setLoadFailed(true);
      },
    );
  }, [slug]);

  // The built text stays while it is the database's; otherwise the API's takes its place until the publish.
  const changed = page !== null && page.updated_at !== builtAt;
  useEffect(() => {
    showBuiltText(!changed);
    return () => showBuiltText(true);
  }, [changed, showBuiltText]);

  return (
    <>
      <section className="content-admin legal-admin" aria-label="Manage this page">
        <ContentAdminHead noticeId={noticeId} notice={notice} loadFailure={loadFailed ? LOAD_FAILED : null}>
          {page && !editing && (
            <button type="button" className="button button--small" onClick={() => setEditing(true)}>
              Edit page
            </button>
          )}
        </ContentAdminHead>
        {page && editing && (
          <LegalPageForm
            page={page}
            onClose={() => setEditing(false)}
            onSaved={(saved, message) => {
              setPage(saved);
              setEditing(false);
              setNotice({ text: message, tone: 'success' });
              requestAnimationFrame(() => document.getElementById(noticeId)?.focus());
            }}
          />
        )}
      </section>
      {changed && <LegalPageText page={page} />}
    </>
  );
}

/** Mounts the overlay at the top of the legal page's article; returns how to take it away (logout, page swap). */
export function mountLegalPageOverlay(article: HTMLElement): () => void {
  const staticText = article.querySelector<HTMLElement>('[data-legal-static]');
  const slug = article.dataset.legalPage as LegalPageSlug | undefined;
  if (!staticText || !slug) return () => {};
  const container = document.createElement('div');
  container.className = 'content-admin-root';
  article.prepend(container);
  const root = createRoot(container);
  root.render(
    <StrictMode>
      <LegalPageOverlay slug={slug} builtAt={article.dataset.updatedAt ?? ''} showBuiltText={(shown) => (staticText.hidden = !shown)} />
    </StrictMode>,
  );
  return () => {
    root.unmount();
    container.remove();
    staticText.hidden = false;
  };
}
