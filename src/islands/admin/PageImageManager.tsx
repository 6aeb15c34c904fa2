// The image manager of the post form (docs/content-api.md, 'Images'): the namespace's media library with
// uploads, YouTube links as video items, and "Insert into text" for the ticked items at the body's
// cursor. The library comes from the API (admin-only: images uploaded for drafts stay private).
import {
  addVideo,
  deletePageImages,
  fetchPageImages,
  replaceImageFile,
  savePageImageDetails,
  uploadPageImage,
  type PageImage,
} from '../../lib/api/page-images.ts';
import type { Namespace } from '../../../common/snapshot-types.ts';
import { imageMarkdown, videoEmbed } from './markdown-edits.ts';
import { ImageGrid } from './media/ImageGrid.tsx';
import { inMediaDialog, type MediaManagerProps } from './media/MediaDialog.tsx';
import type { MediaTexts } from './media/media-library-actions.ts';
import { MediaLibrary } from './media/MediaLibrary.tsx';
import { IMAGE_TYPES, UploadForm } from './media/UploadForm.tsx';
import { useMediaLibrary } from './media/use-media-library.ts';
import { VideoLinkForm } from './media/VideoLinkForm.tsx';

/** What "insert into text" puts in the body for an image or a video item (docs/content-api.md). */
export function insertionFor(image: PageImage): string | null {
  if (image.is_video) return image.image_url.video ? videoEmbed(image.title || image.alt, image.image_url.video) : null;
  const url = image.image_url.image ?? image.image_url.lg ?? image.image_url.thumb;
  return url ? imageMarkdown(image.alt || image.title, url) : null;
}

/** Old URL → new URL for every variant both versions have. */
export function urlPairs(before: PageImage['image_url'], after: PageImage['image_url']): [string, string][] {
  return Object.entries(before).flatMap(([variant, url]) => {
    const next = after[variant as keyof typeof after];
    return url && next && next !== url ? [[url, next] as [string, string]] : [];
  });
}

const quoted = (image: PageImage) => `"${image.title || image.id}"`;

const TEXTS: MediaTexts<PageImage> = {
  deleted: 'Image deleted.',
  deleteTitle: 'Delete images',
  deleteQuestion: (images, ids) =>
    ids.length === 1 ? `Delete the image ${images[0] ? quoted(images[0]) : ''}?` : `Delete ${ids.length} images (${images.map(quoted).join(', ')})?`,
  loadFailed: 'Could not load the images',
};

interface PageImageManagerProps extends MediaManagerProps {
  ns: Namespace;
  /** Receives the blocks to insert at the body's cursor; the dialog closes afterwards. */
  onInsert: (blocks: string[]) => void;
  /**
   * A replaced file gets new URLs and the server rewrites the stored bodies that used the old ones; a
   * body open in the form is not stored yet, so it gets the same rewrite through this.
   */
  onUrlsReplaced: (pairs: [from: string, to: string][]) => void;
}

function PageImageLibrary({ ns, onInsert, confirm, onWrite, onUrlsReplaced }: PageImageManagerProps) {
  const library = useMediaLibrary<PageImage>({
    source: { list: () => fetchPageImages(ns), remove: (ids, force) => deletePageImages(ns, ids, force), forceable: true },
    texts: TEXTS,
    confirm,
    afterWrite: onWrite,
  });
  // New items are ticked, ready for "Insert into text".
  const added = (answer: { message: string; image: PageImage }) => ({ message: answer.message, id: answer.image.id });

  const insert = () => {
    const blocks = library.selectedItems.map(insertionFor).filter((block): block is string => block !== null);
    if (blocks.length === 0) return library.nothingSelected();
    onInsert(blocks);
  };

  const replaceFile = (image: PageImage) => async (file: File) => {
    const answer = await replaceImageFile(ns, image.id, file);
    if (answer.image) onUrlsReplaced(urlPairs(image.image_url, answer.image.image_url));
    return answer;
  };

  const adders = (
    <div className="image-manager__add">
      <UploadForm
        fileLabel="Image file"
        accept={IMAGE_TYPES}
        className="image-manager__upload"
        withImageDetails
        onUpload={(file, details) =>
          library.upload(file, async (chosen) => added(await uploadPageImage(ns, chosen, details)), 'Image uploaded.', { tickWritten: true })
        }
      />
      <VideoLinkForm onAdd={(url) => library.write(async () => added(await addVideo(ns, url)), 'Video added.', { tickWritten: true })} />
    </div>
  );
  const insertButton = (
    <button type="button" className="button" onClick={insert}>
      Insert into text
    </button>
  );

  return (
    <MediaLibrary library={library} block="image-manager" adders={adders} actions={insertButton} showCount>
      <ImageGrid
        library={library}
        items={library.items}
        label="Images"
        emptyNote="No images yet: upload one above."
        card={(image) => ({ id: image.id, title: image.title, alt: image.alt, thumb: image.image_url.thumb, isVideo: image.is_video === 1 })}
        keyOf={(image) => `${image.id}-${image.created_at}`}
        saveDetails={(image, details) => savePageImageDetails(ns, image.id, details)}
        replaceFile={(image) => (image.is_video ? undefined : replaceFile(image))}
      />
    </MediaLibrary>
  );
}

export const PageImageManager = inMediaDialog('Images', PageImageLibrary);
