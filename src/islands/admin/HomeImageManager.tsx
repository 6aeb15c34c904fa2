// The home page's image manager (docs/content-api.md, 'Home images'): the home media library with an
// upload into a section's slideshow (or unassigned), a filter by section and a section picker on each
// image. Changes reach the slideshows readers see with the publish each of them schedules.
import { useId, useState } from 'react';
import {
  assignHomeImage,
  deleteHomeImages,
  fetchHomeImages,
  replaceHomeImageFile,
  saveHomeImageDetails,
  uploadHomeImage,
  type HomeImage,
  type HomeSection,
} from '../../lib/api/home.ts';
import { ImageGrid } from './media/ImageGrid.tsx';
import { inMediaDialog, type MediaManagerProps } from './media/MediaDialog.tsx';
import type { MediaTexts } from './media/media-library-actions.ts';
import { MediaLibrary } from './media/MediaLibrary.tsx';
import { IMAGE_TYPES, UploadForm } from './media/UploadForm.tsx';
import { useMediaLibrary } from './media/use-media-library.ts';

/** 'all', or a section id (0: images assigned to no section). */
export type HomeImageFilter = 'all' | number;

const TEXTS: MediaTexts<HomeImage> = {
  deleted: 'Image deleted.',
  deleteTitle: 'Delete images',
  deleteQuestion: (images) => `Delete ${images.map((image) => `"${image.title || image.id}"`).join(', ')}?`,
  loadFailed: 'Could not load the home images',
};

interface HomeImageManagerProps extends MediaManagerProps {
  sections: HomeSection[];
  initialFilter: HomeImageFilter;
  /** Reloads the sections, whose admin bars list their images. */
  onChanged: () => Promise<void>;
}

interface SectionSelectProps {
  label: string;
  sections: HomeSection[];
  value: HomeImageFilter;
  onChange: (value: HomeImageFilter) => void;
  /** The filter also offers every image. */
  withAll?: boolean;
  labelClass?: string;
  selectClass?: string;
}

/** A labelled picker of home sections, "Not assigned" (0) first. */
function SectionSelect({ label, sections, value, onChange, withAll = false, labelClass = 'field__label', selectClass = 'field__control' }: SectionSelectProps) {
  const id = useId();
  return (
    <>
      <label className={labelClass} htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className={selectClass}
        value={String(value)}
        onChange={(event) => onChange(event.target.value === 'all' ? 'all' : Number(event.target.value))}
      >
        {withAll && <option value="all">All images</option>}
        <option value={0}>Not assigned</option>
        {sections.map((section) => (
          <option key={section.id} value={section.id}>
            {section.title}
          </option>
        ))}
      </select>
    </>
  );
}

function HomeImageLibrary({ sections, initialFilter, onChanged, confirm, onWrite }: HomeImageManagerProps) {
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
    <UploadForm
      fileLabel="Image file"
      accept={IMAGE_TYPES}
      className="image-manager__upload"
      withImageDetails
      onUpload={(file, details) => library.upload(file, (chosen) => uploadHomeImage(chosen, target, details), 'Image uploaded.')}
    >
      <SectionSelect label="Assign to" sections={sections} value={target} onChange={(value) => setTarget(value === 'all' ? 0 : value)} />
    </UploadForm>
  );
  const filterPicker = (
    <SectionSelect label="Show" sections={sections} value={filter} onChange={setFilter} withAll selectClass="field__control image-manager__filter" />
  );
  const moveTo = (image: HomeImage, sectionId: HomeImageFilter) =>
    void library.write(() => assignHomeImage(image, sectionId === 'all' ? 0 : sectionId), 'Image moved.');

  return (
    <MediaLibrary library={library} block="image-manager" adders={upload} actions={filterPicker}>
      <ImageGrid
        library={library}
        items={shown}
        label="Home images"
        emptyNote="No images here."
        card={(image) => ({ id: image.id, title: image.title, alt: image.alt, thumb: image.urls.thumb, isVideo: false })}
        saveDetails={(image, details) => saveHomeImageDetails(image.id, details)}
        replaceFile={(image) => (file) => replaceHomeImageFile(image.id, file)}
        extra={(image) => (
          <SectionSelect
            label="Section"
            labelClass="image-item__label"
            sections={sections}
            value={image.home_section_id}
            onChange={(value) => moveTo(image, value)}
          />
        )}
      />
    </MediaLibrary>
  );
}

export const HomeImageManager = inMediaDialog('Home images', HomeImageLibrary);
