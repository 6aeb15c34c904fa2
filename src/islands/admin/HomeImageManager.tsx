// The home page's image manager (docs/content-api.md, 'Home images'): the home media library with an
// upload into a section's slideshow (or unassigned), a filter by section and a section picker on each
// image. Changes reach the slideshows readers see with the publish each of them schedules.
import { useId, useState } from 'react';
import { assignHomeImage, deleteHomeImages, fetchHomeImages, saveHomeImageDetails, uploadHomeImage, type HomeImage, type HomeSection } from '../../lib/api/home.ts';
import { replaceImageFile } from '../../lib/api/page-images.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { ImageGrid } from './media/ImageGrid.tsx';
import type { MediaTexts } from './media/media-library-actions.ts';
import { MediaLibrary } from './media/MediaLibrary.tsx';
import { IMAGE_TYPES, UploadForm } from './media/UploadForm.tsx';
import { useMediaLibrary, type MediaLibrary as Library } from './media/use-media-library.ts';
import type { Confirm } from './use-confirm.tsx';

/** 'all', or a section id (0: images assigned to no section). */
export type HomeImageFilter = 'all' | number;

const TEXTS: MediaTexts<HomeImage> = {
  deleted: 'Image deleted.',
  deleteTitle: 'Delete images',
  deleteQuestion: (images) => `Delete ${images.map((image) => `"${image.title || image.id}"`).join(', ')}?`,
  loadFailed: 'Could not load the home images',
};

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
      <HomeImageLibrary {...props} />
    </Dialog>
  );
}

function SectionOptions({ sections }: { sections: HomeSection[] }) {
  return (
    <>
      <option value={0}>Not assigned</option>
      {sections.map((section) => (
        <option key={section.id} value={section.id}>
          {section.title}
        </option>
      ))}
    </>
  );
}

function HomeImageLibrary({ sections, initialFilter, onChanged, confirm, onWrite }: HomeImageManagerProps) {
  const id = useId();
  const [filter, setFilter] = useState<HomeImageFilter>(initialFilter);
  const [target, setTarget] = useState(initialFilter === 'all' ? 0 : initialFilter);
  const library = useMediaLibrary<HomeImage>({
    source: { list: fetchHomeImages, remove: deleteHomeImages, forceable: true },
    texts: TEXTS,
    confirm,
    afterWrite: async () => {
      onWrite();
      await onChanged();
    },
  });
  const shown = filter === 'all' ? library.items : library.items.filter((image) => image.home_section_id === filter);

  const upload = (
    <UploadForm fileLabel="Image file" accept={IMAGE_TYPES} className="image-manager__upload" onUpload={(file) => library.upload(file, (chosen) => uploadHomeImage(chosen, target), 'Image uploaded.')}>
      <label className="field__label" htmlFor={`${id}-target`}>
        Assign to
      </label>
      <select id={`${id}-target`} className="field__control" value={target} onChange={(event) => setTarget(Number(event.target.value))}>
        <SectionOptions sections={sections} />
      </select>
    </UploadForm>
  );
  const filterPicker = (
    <>
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
        <SectionOptions sections={sections} />
      </select>
    </>
  );

  return (
    <MediaLibrary library={library} block="image-manager" adders={upload} actions={filterPicker}>
      <ImageGrid
        library={library}
        items={shown}
        label="Home images"
        emptyNote="No images here."
        card={(image) => ({ id: image.id, title: image.title, alt: image.alt, thumb: image.urls.thumb, isVideo: false })}
        saveDetails={(image, details) => saveHomeImageDetails(image.id, details)}
        replaceFile={(image) => (file) => replaceImageFile('home', image.id, file)}
        extra={(image) => <SectionPicker library={library} image={image} sections={sections} />}
      />
    </MediaLibrary>
  );
}

function SectionPicker({ library, image, sections }: { library: Library<HomeImage>; image: HomeImage; sections: HomeSection[] }) {
  const id = useId();
  return (
    <>
      <label className="image-item__label" htmlFor={`${id}-section`}>
        Section
      </label>
      <select
        id={`${id}-section`}
        className="field__control"
        value={image.home_section_id}
        onChange={(event) => void library.write(() => assignHomeImage(image, Number(event.target.value)), 'Image moved.')}
      >
        <SectionOptions sections={sections} />
      </select>
    </>
  );
}
