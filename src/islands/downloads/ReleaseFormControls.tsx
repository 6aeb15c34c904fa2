// The release form's checkbox and file inputs with their own error slots (docs/product/messages.md#validation: is_current,
// downloadable and file each have one), tied to the input by aria-invalid and aria-describedby like the
// shared text Field.
import { useId } from 'react';
import { describedByOf } from '../ui/described-by.ts';
import { FieldNotes } from '../ui/Field.tsx';

interface FlagFieldProps {
  label: string;
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | undefined;
  hint?: string;
}

export function FlagField({ label, name, checked, onChange, error, hint }: FlagFieldProps) {
  const id = useId();
  return (
    <div className={error ? 'field field--flag field--invalid' : 'field field--flag'}>
      <div className="field--checkbox">
        <input
          id={id}
          name={name}
          type="checkbox"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedByOf(id, hint, error)}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

interface FileFieldProps {
  label: string;
  name: string;
  onChange: (file: File | null) => void;
  error?: string | undefined;
  hint?: string;
}

/** Uncontrolled (scripts cannot set a file input); the form is remounted to clear it. */
export function FileField({ label, name, onChange, error, hint }: FileFieldProps) {
  const id = useId();
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="file"
        className="field__control field__control--file"
        onChange={(event) => onChange(event.target.files?.[0] ?? null)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedByOf(id, hint, error)}
      />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
