// A labelled input (or textarea) with its first server error underneath, tied together for assistive
// technology: aria-invalid marks the field, aria-describedby points at the error text.
import { useId, type InputHTMLAttributes } from 'react';
import { describedByOf } from './described-by.ts';

interface FieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  type?: 'text' | 'email' | 'password' | 'tel' | 'date';
  multiline?: boolean;
  autoComplete?: string;
  /** Focused when the surrounding dialog opens. */
  autoFocusOnOpen?: boolean;
  inputMode?: InputHTMLAttributes<HTMLInputElement>['inputMode'];
  hint?: string;
  /** The id of a <datalist> of suggestions (free text stays allowed). */
  list?: string;
}

/** The hint and the first server error under a control, with the ids describedByOf names. */
export function FieldNotes({ id, hint, error }: { id: string; hint?: string | undefined; error?: string | undefined }) {
  return (
    <>
      {hint && (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </>
  );
}

export function Field({
  label,
  name,
  value,
  onChange,
  error,
  type = 'text',
  multiline = false,
  autoComplete,
  autoFocusOnOpen,
  inputMode,
  hint,
  list,
}: FieldProps) {
  const id = useId();
  const describedBy = describedByOf(id, hint, error);
  const common = {
    id,
    name,
    value,
    autoComplete,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'data-autofocus': autoFocusOnOpen ? '' : undefined,
    className: 'field__control',
  };
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {multiline ? (
        <textarea {...common} rows={6} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...common} type={type} inputMode={inputMode} list={list} onChange={(event) => onChange(event.target.value)} />
      )}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

interface CheckboxProps {
  label: string;
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

export function Checkbox({ label, name, checked, onChange }: CheckboxProps) {
  const id = useId();
  return (
    <div className="field field--checkbox">
      <input id={id} name={name} type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

interface SelectFieldProps {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string | number; label: string }[];
  error?: string | undefined;
  /** An option shown first, with the value '' (e.g. 'Choose a type…', 'No file'). */
  emptyOption?: string;
  /** Focused when the surrounding dialog opens. */
  autoFocusOnOpen?: boolean;
  className?: string;
  hint?: string;
}

/** A labelled select with its first server error underneath, tied together like Field's. */
export function SelectField({ label, name, value, onChange, options, error, emptyOption, autoFocusOnOpen, className, hint }: SelectFieldProps) {
  const id = useId();
  return (
    <div className={[error ? 'field field--invalid' : 'field', className].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        name={name}
        className="field__control"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedByOf(id, hint, error)}
        data-autofocus={autoFocusOnOpen ? '' : undefined}
      >
        {emptyOption !== undefined && <option value="">{emptyOption}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}
