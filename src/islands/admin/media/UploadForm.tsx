// The upload form of a media library: one file (the first control, focused when the dialog opens), the
// library's own fields (a description, a section), and Upload. The chosen file is cleared once stored.
// An image library (`withImageDetails`) also asks for the image's title (its public caption) and alt text,
// pre-filled from the file's name once one is chosen, with a warning while the alt text is empty
// (media/image-details.ts).
import { useId, useState, type ReactNode } from 'react';
import { Field } from '../../ui/Field.tsx';
import { altWarning, detailsFromFileName, type UploadDetails } from './image-details.ts';

export const IMAGE_TYPES = 'image/jpeg,image/png,image/webp,image/gif,image/avif';

interface UploadFormProps {
  fileLabel: string;
  accept?: string;
  /**
   * Sends the file (null when none is chosen) with the title and alt text when the form asks for them;
   * resolves true once it is stored.
   */
  onUpload: (file: File | null, details: UploadDetails | null) => Promise<boolean>;
  /** Labelled controls between the file and the button. */
  children?: ReactNode;
  /** The files manager lays its controls out as stacked fields. */
  stacked?: boolean;
  /** Ask for the image's title and alt text. */
  withImageDetails?: boolean;
  className: string;
}

const EMPTY_DETAILS: UploadDetails = { title: '', alt: '' };

function ImageDetailsFields({ details, onChange }: { details: UploadDetails; onChange: (details: UploadDetails) => void }) {
  const warning = altWarning(details);
  return (
    <div className="upload-details">
      <Field
        label="Title"
        name="title"
        value={details.title}
        onChange={(title) => onChange({ ...details, title })}
        hint="The caption readers see (left empty: the file's name)."
      />
      <div className={warning ? 'upload-details__alt upload-details__alt--missing' : 'upload-details__alt'}>
        <Field
          label="Alt text"
          name="alt"
          value={details.alt}
          onChange={(alt) => onChange({ ...details, alt })}
          hint={warning ?? 'What the image shows, for screen readers.'}
        />
      </div>
    </div>
  );
}

export function UploadForm({ fileLabel, accept, onUpload, children, stacked = false, withImageDetails = false, className }: UploadFormProps) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [details, setDetails] = useState<UploadDetails>(EMPTY_DETAILS);
  // A new key gives a fresh, empty file input after an upload: its value cannot be set otherwise.
  const [fileKey, setFileKey] = useState(0);

  const choose = (chosen: File | null) => {
    setFile(chosen);
    if (withImageDetails) setDetails(chosen ? detailsFromFileName(chosen.name) : EMPTY_DETAILS);
  };

  const submit = async () => {
    if (!(await onUpload(file, withImageDetails && file ? details : null))) return;
    setFile(null);
    setDetails(EMPTY_DETAILS);
    setFileKey((key) => key + 1);
  };

  const fileControl = (
    <>
      <label className="field__label" htmlFor={`${id}-file`}>
        {fileLabel}
      </label>
      <input
        key={fileKey}
        id={`${id}-file`}
        className="field__control field__control--file"
        type="file"
        accept={accept}
        onChange={(event) => choose(event.target.files?.[0] ?? null)}
        data-autofocus=""
      />
    </>
  );

  return (
    <form
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      noValidate
    >
      {stacked ? <div className="field">{fileControl}</div> : fileControl}
      {withImageDetails && file && <ImageDetailsFields details={details} onChange={setDetails} />}
      {children}
      <button type="submit" className={stacked ? 'button' : 'button button--small'}>
        Upload
      </button>
    </form>
  );
}
