// The upload form of a media library: one file (the first control, focused when the dialog opens), the
// library's own fields (a description, a section), and Upload. The chosen file is cleared once stored.
import { useId, useState, type ReactNode } from 'react';

export const IMAGE_TYPES = 'image/jpeg,image/png,image/webp,image/gif,image/avif';

interface UploadFormProps {
  fileLabel: string;
  accept?: string;
  /** Sends the file (null when none is chosen); resolves true once it is stored. */
  onUpload: (file: File | null) => Promise<boolean>;
  /** Labelled controls between the file and the button. */
  children?: ReactNode;
  /** The files manager lays its controls out as stacked fields. */
  stacked?: boolean;
  className: string;
}

export function UploadForm({ fileLabel, accept, onUpload, children, stacked = false, className }: UploadFormProps) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  // A new key gives a fresh, empty file input after an upload: its value cannot be set otherwise.
  const [fileKey, setFileKey] = useState(0);

  const submit = async () => {
    if (!(await onUpload(file))) return;
    setFile(null);
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
        onChange={(event) => setFile(event.target.files?.[0] ?? null)}
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
      {children}
      <button type="submit" className={stacked ? 'button' : 'button button--small'}>
        Upload
      </button>
    </form>
  );
}
