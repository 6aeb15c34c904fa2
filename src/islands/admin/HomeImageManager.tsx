// The home page's image manager (SPEC.md 2.4, 7 'Home'): upload an image into a section's slideshow (or
// unassigned), move images between sections, edit title and alt, replace the file, delete one or the
// ticked ones. Changes reach the slideshows readers see with the publish each of them schedules.
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { Dialog } from '../ui/Dialog.tsx';
import { Message } from '../ui/Message.tsx';
import type { FormMessage } from '../ui/form-errors.ts';
import { assignHomeImage, deleteHomeImages, fetchHomeImages, replaceImageFile, saveHomeImageDetails, uploadHomeImage, type HomeImage, type HomeSection } from './content-api.ts';
import { ImageItem } from './ImageItem.tsx';
import { RefusedDeletions, withTicked, type RefusedDeletion } from './RefusedDeletions.tsx';
import { failureNotice, isConflict, reportOf, successNotice } from './notices.ts';
import { FILE_NOT_SELECTED, NOTHING_SELECTED } from './PageImageManager.tsx';
import { HARD_DELETE_WARNING, type Confirm } from '../ui/use-confirm.tsx';

/** 'all', or a section id (0: images assigned to no section). */
export type HomeImageFilter = 'all' | number;

interface HomeImageManagerProps {
  open: boolean;
  onClose: () => void;
  sections: HomeSection[];
  initialFilter: HomeImageFilter;
  /** Reloads the sections, whose admin bars list their images. */
  onChanged: () => Promise<void>;
  confirm: Confirm;
  onWrite: () => void;
}

export function HomeImageManager(props: HomeImageManagerProps) {
  // The dialog renders its content only while open, so each opening starts from the section it was
  // opened for, with a fresh list and notice.
  return (
    <Dialog title="Home images" open={props.open} onClose={props.onClose} size="wide">
      <HomeImageManagerBody {...props} />
    </Dialog>
  );
}

function HomeImageManagerBody({ sections, initialFilter, onChanged, confirm, onWrite }: HomeImageManagerProps) {
  const id = useId();
  const [images, setImages] = useState<HomeImage[]>([]);
  const [filter, setFilter] = useState<HomeImageFilter>(initialFilter);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const [refused, setRefused] = useState<RefusedDeletion | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileKey, setFileKey] = useState(0);
  const [target, setTarget] = useState(initialFilter === 'all' ? 0 : initialFilter);

  const reload = useCallback(async () => {
    try {
      setImages(await fetchHomeImages());
    } catch (error) {
      console.error('Could not load the home images', error);
      setNotice(failureNotice(error));
    }
  }, []);

  useEffect(() => {
    let current = true;
    fetchHomeImages()
      .then((list) => current && setImages(list))
      .catch((error: unknown) => {
        console.error('Could not load the home images', error);
        if (current) setNotice(failureNotice(error));
      });
    return () => {
      current = false;
    };
  }, []);

  const changed = async () => {
    onWrite();
    await Promise.all([reload(), onChanged()]);
  };

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setNotice({ text: FILE_NOT_SELECTED, tone: 'error' });
    try {
      const answer = await uploadHomeImage(file, target);
      setNotice(successNotice(answer, 'Image uploaded.'));
      setFile(null);
      setFileKey((key) => key + 1);
      await changed();
    } catch (error) {
      setNotice(failureNotice(error));
    }
  };

  const remove = async (ids: number[], force = false) => {
    if (ids.length === 0) return setNotice({ text: NOTHING_SELECTED, tone: 'error' });
    if (!force) {
      const names = images.filter((image) => ids.includes(image.id)).map((image) => `"${image.title || image.id}"`);
      if (!(await confirm({ title: 'Delete images', message: `Delete ${names.join(', ')}? ${HARD_DELETE_WARNING}`, confirmLabel: 'Delete' }))) return;
    }
    try {
      const answer = await deleteHomeImages(ids, force);
      setRefused(null);
      setNotice(successNotice(answer, 'Image deleted.'));
      setSelected(new Set());
      await changed();
    } catch (error) {
      setNotice(failureNotice(error));
      setRefused(isConflict(error) ? { ids, report: reportOf(error) } : null);
      await reload();
    }
  };

  const move = async (image: HomeImage, sectionId: number) => {
    try {
      const answer = await assignHomeImage(image, sectionId);
      setNotice(successNotice(answer, 'Image moved.'));
      await changed();
    } catch (error) {
      setNotice(failureNotice(error));
    }
  };

  const shown = filter === 'all' ? images : images.filter((image) => image.home_section_id === filter);
  const sectionOptions = [
    <option key={0} value={0}>
      Not assigned
    </option>,
    ...sections.map((section) => (
      <option key={section.id} value={section.id}>
        {section.title}
      </option>
    )),
  ];

  return (
    <div className="image-manager">
      <Message message={notice} id={`${id}-notice`} />
      <RefusedDeletions refused={refused} onDeleteAnyway={(ids) => void remove(ids, true)} />
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
        <label className="field__label" htmlFor={`${id}-target`}>
          Assign to
        </label>
        <select id={`${id}-target`} className="field__control" value={target} onChange={(event) => setTarget(Number(event.target.value))}>
          {sectionOptions}
        </select>
        <button type="submit" className="button button--small">
          Upload
        </button>
      </form>
      <div className="image-manager__actions">
        <label className="field__label" htmlFor={`${id}-filter`}>
          Show
        </label>
        <select
          id={`${id}-filter`}
          className="field__control image-manager__filter"
          value={String(filter)}
          onChange={(event) => setFilter(event.target.value === 'all' ? 'all' : Number(event.target.value))}
        >
          <option value="all">All images</option>
          {sectionOptions}
        </select>
        <button type="button" className="button button--danger" onClick={() => void remove([...selected].filter((imageId) => images.some((image) => image.id === imageId)))}>
          Delete selected
        </button>
      </div>
      {shown.length === 0 ? (
        <p className="empty-note">No images here.</p>
      ) : (
        <ul className="image-grid" aria-label="Home images">
          {shown.map((image) => (
            <ImageItem
              key={image.id}
              item={{ id: image.id, title: image.title, alt: image.alt, thumb: image.urls.thumb, isVideo: false }}
              selected={selected.has(image.id)}
              onSelect={(on) => setSelected((previous) => withTicked(previous, image.id, on))}
              onSaveDetails={async (details) => {
                const answer = await saveHomeImageDetails(image.id, details);
                await changed();
                return answer.message;
              }}
              onReplace={async (replacement) => {
                const answer = await replaceImageFile('home', image.id, replacement);
                setNotice(successNotice(answer, 'Image replaced.'));
                await changed();
              }}
              onDelete={() => void remove([image.id])}
            >
              <label className="image-item__label" htmlFor={`${id}-section-${image.id}`}>
                Section
              </label>
              <select id={`${id}-section-${image.id}`} className="field__control" value={image.home_section_id} onChange={(event) => void move(image, Number(event.target.value))}>
                {sectionOptions}
              </select>
            </ImageItem>
          ))}
        </ul>
      )}
    </div>
  );
}
