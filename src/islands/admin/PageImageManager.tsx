// The image manager of the post form (SPEC.md 2.5, 5; issue 5 item 3): upload (with the progress
// overlay), a YouTube link as a video item, replace a file, edit title and alt, delete one or the ticked
// ones, and insert the ticked ones into the body at the cursor. The namespace's library comes from the
// API (admin-only: images uploaded for drafts stay private).
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
import { Message } from '../ui/Message.tsx';
import type { FormMessage } from '../ui/form-errors.ts';
import { addVideo, deletePageImages, fetchPageImages, replaceImageFile, savePageImageDetails, uploadPageImage, type Namespace, type PageImage } from './content-api.ts';
import { ImageItem, type LibraryItem } from './ImageItem.tsx';
import { imageMarkdown, videoEmbed } from './markdown-edits.ts';
import { failureNotice, isConflict, reportOf, successNotice } from './notices.ts';
import { RefusedDeletions, withTicked, type RefusedDeletion } from './RefusedDeletions.tsx';
import { HARD_DELETE_WARNING, type Confirm } from '../ui/use-confirm.tsx';

export const FILE_NOT_SELECTED = 'File not selected';
export const NOTHING_SELECTED = 'Nothing selected!';

/** What "insert into text" puts in the body for an image or a video item (docs/content-api.md). */
export function insertionFor(image: PageImage): string | null {
  if (image.is_video) return image.image_url.video ? videoEmbed(image.title || image.alt, image.image_url.video) : null;
  const url = image.image_url.image ?? image.image_url.lg ?? image.image_url.thumb;
  return url ? imageMarkdown(image.alt || image.title, url) : null;
}

/** Old URL → new URL for every variant both versions have. */
function urlPairs(before: PageImage['image_url'], after: PageImage['image_url']): [string, string][] {
  return Object.entries(before).flatMap(([variant, url]) => {
    const next = after[variant as keyof typeof after];
    return url && next && next !== url ? [[url, next] as [string, string]] : [];
  });
}

function libraryItem(image: PageImage): LibraryItem {
  return { id: image.id, title: image.title, alt: image.alt, thumb: image.image_url.thumb, isVideo: image.is_video === 1 };
}

interface PageImageManagerProps {
  ns: Namespace;
  open: boolean;
  onClose: () => void;
  /** Receives the blocks to insert at the body's cursor; the dialog closes afterwards. */
  onInsert: (blocks: string[]) => void;
  confirm: Confirm;
  onWrite: () => void;
  /**
   * A replaced file gets new URLs and the server rewrites the stored bodies that used the old ones; a
   * body open in the form is not stored yet, so it gets the same rewrite through this.
   */
  onUrlsReplaced: (pairs: [from: string, to: string][]) => void;
}

export function PageImageManager(props: PageImageManagerProps) {
  // The dialog renders its content only while open, so each opening starts with a fresh list and notice.
  return (
    <Dialog title="Images" open={props.open} onClose={props.onClose} size="wide">
      <PageImageManagerBody {...props} />
    </Dialog>
  );
}

function PageImageManagerBody({ ns, onInsert, confirm, onWrite, onUrlsReplaced }: PageImageManagerProps) {
  const id = useId();
  const [images, setImages] = useState<PageImage[]>([]);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const [refused, setRefused] = useState<RefusedDeletion | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileKey, setFileKey] = useState(0);
  const [videoUrl, setVideoUrl] = useState('');

  const reload = useCallback(async () => {
    try {
      const list = await fetchPageImages(ns);
      setImages(list);
      // Ticks of images that are gone go with them.
      setSelected((previous) => new Set([...previous].filter((imageId) => list.some((image) => image.id === imageId))));
    } catch (error) {
      // SPEC.md 8: loading images that fails is logged; the notice says why the list is empty.
      console.error('Could not load the images', error);
      setNotice(failureNotice(error));
    }
  }, [ns]);

  useEffect(() => {
    let current = true;
    fetchPageImages(ns)
      .then((list) => current && setImages(list))
      .catch((error: unknown) => {
        console.error('Could not load the images', error);
        if (current) setNotice(failureNotice(error));
      });
    return () => {
      current = false;
    };
  }, [ns]);

  const toggle = (imageId: number, on: boolean) => setSelected((previous) => withTicked(previous, imageId, on));

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setNotice({ text: FILE_NOT_SELECTED, tone: 'error' });
    try {
      const answer = await uploadPageImage(ns, file);
      onWrite();
      setNotice(successNotice(answer, 'Image uploaded.'));
      setFile(null);
      setFileKey((key) => key + 1);
      await reload();
      // The new image is ticked, ready for "Insert into text".
      setSelected((previous) => new Set([...previous, answer.image.id]));
    } catch (error) {
      setNotice(failureNotice(error));
    }
  };

  const addVideoItem = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const answer = await addVideo(ns, videoUrl);
      onWrite();
      setNotice(successNotice(answer, 'Video added.'));
      setVideoUrl('');
      await reload();
      setSelected((previous) => new Set([...previous, answer.image.id]));
    } catch (error) {
      setNotice(failureNotice(error));
    }
  };

  const remove = async (ids: number[], force = false) => {
    if (ids.length === 0) return setNotice({ text: NOTHING_SELECTED, tone: 'error' });
    if (!force) {
      const names = images.filter((image) => ids.includes(image.id)).map((image) => `"${image.title || image.id}"`);
      const question = ids.length === 1 ? `Delete the image ${names[0] ?? ''}?` : `Delete ${ids.length} images (${names.join(', ')})?`;
      if (!(await confirm({ title: 'Delete images', message: `${question} ${HARD_DELETE_WARNING}`, confirmLabel: 'Delete' }))) return;
    }
    try {
      const answer = await deletePageImages(ns, ids, force);
      onWrite();
      setRefused(null);
      setNotice(successNotice(answer, 'Image deleted.'));
    } catch (error) {
      setNotice(failureNotice(error));
      // In use on a page: the report says where, and the admin may delete anyway.
      setRefused(isConflict(error) ? { ids, report: reportOf(error) } : null);
    }
    // SPEC.md 8: the list is reloaded after a delete, whatever its outcome.
    await reload();
  };

  const insert = () => {
    const blocks = images.filter((image) => selected.has(image.id)).map(insertionFor);
    const usable = blocks.filter((block): block is string => block !== null);
    if (usable.length === 0) return setNotice({ text: NOTHING_SELECTED, tone: 'error' });
    onInsert(usable);
  };

  return (
    <div className="image-manager">
      <Message message={notice} id={`${id}-notice`} />
      <RefusedDeletions refused={refused} onDeleteAnyway={(ids) => void remove(ids, true)} />
      <div className="image-manager__add">
        <form className="image-manager__upload" onSubmit={(event) => void upload(event)} noValidate>
          <label className="field__label" htmlFor={`${id}-file`}>
            Image file
          </label>
          <input
            key={fileKey}
            id={`${id}-file`}
            className="field__control field__control--file"
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            data-autofocus=""
          />
          <button type="submit" className="button button--small">
            Upload
          </button>
        </form>
        <form className="image-manager__upload" onSubmit={(event) => void addVideoItem(event)} noValidate>
          <label className="field__label" htmlFor={`${id}-video`}>
            YouTube link
          </label>
          <input
            id={`${id}-video`}
            className="field__control"
            type="url"
            inputMode="url"
            placeholder="https://www.youtube.com/watch?v=…"
            value={videoUrl}
            onChange={(event) => setVideoUrl(event.target.value)}
          />
          <button type="submit" className="button button--small">
            Add video
          </button>
        </form>
      </div>
      <p className="image-manager__actions">
        <button type="button" className="button" onClick={insert}>
          Insert into text
        </button>
        <button type="button" className="button button--danger" onClick={() => void remove([...selected])}>
          Delete selected
        </button>
        <span className="image-manager__count" aria-live="polite">
          {selected.size} selected
        </span>
      </p>
      {images.length === 0 ? (
        <p className="empty-note">No images yet: upload one above.</p>
      ) : (
        <ul className="image-grid" aria-label="Images">
          {images.map((image) => (
            <ImageItem
              key={`${image.id}-${image.created_at}`}
              item={libraryItem(image)}
              selected={selected.has(image.id)}
              onSelect={(on) => toggle(image.id, on)}
              onSaveDetails={async (details) => {
                const answer = await savePageImageDetails(ns, image.id, details);
                onWrite();
                setImages((list) => list.map((entry) => (entry.id === image.id ? answer.image : entry)));
                return answer.message;
              }}
              onReplace={
                image.is_video
                  ? undefined
                  : async (replacement) => {
                      const answer = await replaceImageFile(ns, image.id, replacement);
                      onWrite();
                      if (answer.image) onUrlsReplaced(urlPairs(image.image_url, answer.image.image_url));
                      setNotice(successNotice(answer, 'Image replaced.'));
                      await reload();
                    }
              }
              onDelete={() => void remove([image.id])}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
