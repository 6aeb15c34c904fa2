// The admin's downloads page (docs/product/downloads.md#downloads-page, issue 6 items 4-5): the add/edit form at the top and the
// releases from the API, with download counts and Edit / Delete / Download on every release. Loaded only
// for admins by src/scripts/downloads-page.ts (its own chunk: readers never download it). The static list
// stays visible until the API's list is here, then the island's list takes its place; after each write
// the list is read again from the API and the publish that brings readers the change is followed.
// Issue 25: while a release is edited its files can be added and deleted under the form, the entitlement
// field suggests the codes the license types give, and the download statistics follow the list.
import { StrictMode, useCallback, useId, useLayoutEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from '../lib/api/request.ts';
import { ensureAccountRoot } from '../scripts/account-root.ts';
import { loadStylesheet } from '../scripts/load-stylesheet.ts';
import { AdminReleaseList } from './downloads/AdminReleaseList.tsx';
import { PublishState } from './ui/PublishState.tsx';
import { collectStaticBodies, type StaticBodies } from './downloads/ReleaseBody.tsx';
import { ReleaseForm, type FormFocus } from './downloads/ReleaseForm.tsx';
import { deleteRelease, fetchReleases, saveRelease, type Release, type ReleaseInput } from '../lib/api/downloads.ts';
import { listLicenseTypeViews } from '../lib/api/admin.ts';
import { DownloadStats } from './downloads/DownloadStats.tsx';
import { ReleaseFilesEditor } from './downloads/ReleaseFilesEditor.tsx';
import { knownEntitlements } from './downloads/ReleaseGateFields.tsx';
import { followPublish } from '../stores/publish-status.ts';
import { CONNECTION_ERROR, type FormMessage } from './ui/form-errors.ts';
import { HARD_DELETE_WARNING, useConfirm } from './ui/use-confirm.tsx';
import { useLoaded } from './ui/use-loaded.ts';
// Only the URL: an imported sheet would be linked from every page (see load-stylesheet.ts).
import adminStylesUrl from '../styles/downloads-admin.css?url';

const LOAD_FAILED = 'The releases could not be loaded from the server; the list below is the published one. Reload the page to try again.';

/** docs/product/states.md: deletes need an Ok/Cancel confirmation; the wording follows the hard-delete warning of docs/product/messages.md#error-catalogue. */
export function deleteConfirmation(release: Pick<Release, 'title'>): string {
  return `Delete the release "${release.title}" and its file? ${HARD_DELETE_WARNING}`;
}

interface DownloadsAdminProps {
  staticBodies: StaticBodies;
  /** Called once the API's list is shown, to hide the static one. */
  onListShown: () => void;
}

/** The license types' entitlement codes with the names of the types giving each; none if they cannot be read. */
function useKnownEntitlements() {
  const load = useCallback(() => listLicenseTypeViews().then((answer) => knownEntitlements(answer.license_types)), []);
  const { value } = useLoaded(load, 'the license types');
  return useMemo(() => value ?? [], [value]);
}

/**
 * The releases from the API (null until they are in); once shown, the static list is hidden in the same
 * commit, before the browser paints: after it (useEffect) both lists showed for a moment, two "Previous
 * Releases" tables on the page.
 */
function useReleases(onListShown: () => void) {
  const { value: releases, failed: loadFailed, reload } = useLoaded(fetchReleases, 'the releases');
  const listShown = releases !== null;
  useLayoutEffect(() => {
    if (listShown) onListShown();
  }, [listShown, onListShown]);
  return { releases, loadFailed, reload };
}

export function DownloadsAdmin({ staticBodies, onListShown }: DownloadsAdminProps) {
  const { releases, loadFailed, reload } = useReleases(onListShown);
  const { confirm, dialog: confirmDialog } = useConfirm();
  const [editing, setEditing] = useState<Release | null>(null);
  // A new key remounts the form: each mode starts from its release's values.
  const [form, setForm] = useState<{ key: number; focus: FormFocus }>({ key: 0, focus: null });
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const noticeId = useId();
  const entitlements = useKnownEntitlements();
  const gateTypeNames = useCallback((code: string) => entitlements.find((entry) => entry.code === code)?.typeNames ?? [], [entitlements]);
  // The release being edited as the latest list has it: its files change without the form remounting.
  const editedNow = editing ? (releases?.find((release) => release.id === editing.id) ?? editing) : null;

  const switchForm = (release: Release | null, focus: FormFocus) => {
    setEditing(release);
    setForm((previous) => ({ key: previous.key + 1, focus }));
  };

  const save = async (id: number | null, input: ReleaseInput) => {
    const answer = await saveRelease(id, input);
    followPublish();
    setNotice({ text: answer.message, tone: 'success' });
    switchForm(null, 'notice');
    await reload();
  };

  // A file added or deleted changes the published page too.
  const filesChanged = async () => {
    followPublish();
    await reload();
  };

  const remove = async (release: Release) => {
    if (!(await confirm({ title: 'Delete release', message: deleteConfirmation(release), confirmLabel: 'Delete' }))) return;
    try {
      const answer = await deleteRelease(release.id);
      followPublish();
      setNotice({ text: answer.message, tone: 'success' });
      if (editing?.id === release.id) switchForm(null, null);
      await reload();
    } catch (error) {
      setNotice({ text: error instanceof ApiError ? (error.body.message ?? error.message) : CONNECTION_ERROR, tone: 'error' });
    }
    // The pressed button is gone (or the list moved): the notice says what happened.
    requestAnimationFrame(() => document.getElementById(noticeId)?.focus());
  };

  return (
    <>
      <section className="downloads-admin" aria-label="Manage releases">
        <PublishState />
        <ReleaseForm
          key={form.key}
          editing={editing}
          notice={notice}
          noticeId={noticeId}
          focusOnMount={form.focus}
          onNotice={setNotice}
          onSave={save}
          onCancelEdit={() => switchForm(null, 'title')}
          entitlements={entitlements}
        />
        {editedNow && <ReleaseFilesEditor key={editedNow.id} release={editedNow} confirm={confirm} onChanged={filesChanged} />}
      </section>
      {loadFailed && (
        <p className="notice notice--warning" role="alert">
          {LOAD_FAILED}
        </p>
      )}
      {confirmDialog}
      {releases && (
        <AdminReleaseList
          releases={releases}
          staticBodies={staticBodies}
          onEdit={(release) => switchForm(release, 'title')}
          onDelete={(release) => void remove(release)}
          onDownloaded={() => void reload()}
          gateTypeNames={gateTypeNames}
        />
      )}
      {releases && <DownloadStats />}
    </>
  );
}

/** Mounts the admin island after the warning; returns how to take it away again (the user logged out). */
export function mountDownloadsAdmin(page: HTMLElement): () => void {
  const staticParts = [...page.querySelectorAll<HTMLElement>('.download-cards, .previous-releases, .empty-note')];
  const staticBodies = collectStaticBodies(page);
  const container = document.createElement('div');
  container.className = 'downloads-admin-root';
  const anchor = page.querySelector('[data-download-warning]') ?? page.querySelector('h1');
  if (anchor) anchor.after(container);
  else page.prepend(container);
  const hideStatic = () => {
    for (const part of staticParts) part.hidden = true;
  };
  const root = createRoot(container);
  let removed = false;
  // The account root brings the loading modal (uploads and downloads report into it) and the islands'
  // shared sheet; rendering waits for the sheets so the form never shows unstyled.
  const accountRoot = ensureAccountRoot().catch((error: unknown) => console.error('Could not load the loading modal', error));
  void Promise.all([accountRoot, loadStylesheet(adminStylesUrl)]).then(() => {
    if (removed) return;
    root.render(
      <StrictMode>
        <DownloadsAdmin staticBodies={staticBodies} onListShown={hideStatic} />
      </StrictMode>,
    );
  });
  return () => {
    removed = true;
    root.unmount();
    container.remove();
    for (const part of staticParts) part.hidden = false;
  };
}
