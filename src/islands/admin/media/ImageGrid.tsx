// The cards of an image library (page or home images): each tickable, with its details, replace and
// delete wired to the library so every write shows its outcome and reads the list again.
import type { ReactNode } from 'react';
import type { ImageDetails } from '../../../lib/api/page-images.ts';
import { ImageItem, type LibraryItem } from './ImageItem.tsx';
import type { MediaLibrary } from './use-media-library.ts';

interface ImageGridProps<Item extends { id: number }> {
  library: MediaLibrary<Item>;
  /** The items shown (the home library may filter by section). */
  items: Item[];
  label: string;
  emptyNote: string;
  card: (item: Item) => LibraryItem;
  /** Stable across reloads so a card keeps what is being typed into it; the id by default. */
  keyOf?: (item: Item) => string | number;
  saveDetails: (item: Item, details: ImageDetails) => Promise<{ message: string }>;
  /** Absent for items with no file to replace (video links). */
  replaceFile: (item: Item) => ((file: File) => Promise<{ message?: string }>) | undefined;
  /** Extra controls of a card (the home library's section picker). */
  extra?: (item: Item) => ReactNode;
}

export function ImageGrid<Item extends { id: number }>({
  library,
  items,
  label,
  emptyNote,
  card,
  keyOf = (item) => item.id,
  saveDetails,
  replaceFile,
  extra,
}: ImageGridProps<Item>) {
  if (items.length === 0) return <p className="empty-note">{emptyNote}</p>;
  return (
    <ul className="image-grid" aria-label={label}>
      {items.map((item) => {
        const replace = replaceFile(item);
        return (
          <ImageItem
            key={keyOf(item)}
            item={card(item)}
            selected={library.selected.has(item.id)}
            onSelect={(on) => library.toggle(item.id, on)}
            onSaveDetails={async (details) => (await library.writeItem(() => saveDetails(item, details), null)).message}
            onReplace={replace && (async (file) => void (await library.writeItem(() => replace(file), 'Image replaced.')))}
            onDelete={() => void library.remove([item.id])}
          >
            {extra?.(item)}
          </ImageItem>
        );
      })}
    </ul>
  );
}
