// One image (or video item) of an image manager: tick to select, its thumbnail, title and alt to edit,
// replace its file, delete it. The managers for page images and home images share it; `children` adds
// their own controls (the home manager's section picker).
import { useId, useRef, useState, type ReactNode } from 'react';
import type { FormMessage } from '../../ui/form-errors.ts';
import { failureNotice, NOT_FOUND_IMAGE } from '../notices.ts';
import { IMAGE_TYPES } from './UploadForm.tsx';

export interface LibraryItem {
  id: number;
  title: string;
  alt: string;
  thumb: string | undefined;
  isVideo: boolean;
}

interface ImageItemProps {
  item: LibraryItem;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onSaveDetails: (details: { title: string; alt: string }) => Promise<string>;
  /** Absent for video items: a link has no file to replace. */
  onReplace?: ((file: File) => Promise<void>) | undefined;
  onDelete: () => void;
  children?: ReactNode;
}

export function ImageItem({ item, selected, onSelect, onSaveDetails, onReplace, onDelete, children }: ImageItemProps) {
  const id = useId();
  const [title, setTitle] = useState(item.title);
  const [alt, setAlt] = useState(item.alt);
  const [message, setMessage] = useState<FormMessage | null>(null);
  const name = item.title || `image ${item.id}`;

  const save = async () => {
    try {
      setMessage({ text: await onSaveDetails({ title, alt }), tone: 'success' });
    } catch (error) {
      setMessage(failureNotice(error));
    }
  };

  const replace = async (file: File) => {
    try {
      await onReplace?.(file);
    } catch (error) {
      setMessage(failureNotice(error));
    }
  };

  return (
    <li className={selected ? 'image-item is-selected' : 'image-item'} data-image-item={item.id}>
      <ItemPick item={item} name={name} selected={selected} onSelect={onSelect} />
      <div className="image-item__fields">
        <label className="image-item__label" htmlFor={`${id}-title`}>
          Title
        </label>
        <input id={`${id}-title`} className="field__control" value={title} onChange={(event) => setTitle(event.target.value)} />
        <label className="image-item__label" htmlFor={`${id}-alt`}>
          Alt text
        </label>
        <input id={`${id}-alt`} className="field__control" value={alt} onChange={(event) => setAlt(event.target.value)} />
        {children}
      </div>
      <div className="image-item__actions">
        <button type="button" className="button button--small" onClick={() => void save()} aria-label={`Save details of ${name}`}>
          Save details
        </button>
        {onReplace && <ReplaceFileButton name={name} onFile={(file) => void replace(file)} />}
        <button type="button" className="button button--small button--danger" onClick={onDelete} aria-label={`Delete ${name}`}>
          Delete
        </button>
      </div>
      <div className="image-item__message" role="status" aria-live="polite">
        {message && <p className={`form-message__text form-message__text--${message.tone}`}>{message.text}</p>}
      </div>
    </li>
  );
}

function ItemPick({ item, name, selected, onSelect }: { item: LibraryItem; name: string; selected: boolean; onSelect: (selected: boolean) => void }) {
  return (
    <label className="image-item__pick">
      <input type="checkbox" checked={selected} onChange={(event) => onSelect(event.target.checked)} />
      <span className="sr-only">Select {name}</span>
      {item.isVideo || !item.thumb ? (
        <span className="image-item__video" aria-hidden="true">
          ▶ Video
        </span>
      ) : (
        <img
          className="image-item__thumb"
          src={item.thumb}
          alt=""
          loading="lazy"
          onError={(event) => {
            // A broken image shows the not-found placeholder (once: the placeholder may be missing too).
            if (!event.currentTarget.src.endsWith(NOT_FOUND_IMAGE)) event.currentTarget.src = NOT_FOUND_IMAGE;
          }}
        />
      )}
    </label>
  );
}

/** A button that opens the file chooser; the input is emptied after each choice so the same file can be chosen again. */
function ReplaceFileButton({ name, onFile }: { name: string; onFile: (file: File) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={IMAGE_TYPES}
        hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
        aria-label={`New file for ${name}`}
      />
      <button type="button" className="button button--small button--secondary" onClick={() => input.current?.click()} aria-label={`Replace file of ${name}`}>
        Replace file
      </button>
    </>
  );
}
