// A fieldset of checkboxes for a list of names (a webhook's events, an API token's scopes), with the field's
// error under it like any other field (ui/Field.tsx).
import { useId } from 'react';
import { FieldNotes } from '../ui/Field.tsx';

interface ChoiceListProps {
  legend: string;
  name: string;
  options: readonly string[];
  chosen: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  error?: string | undefined;
}

export function ChoiceList({ legend, name, options, chosen, onChange, error }: ChoiceListProps) {
  const id = useId();
  const toggle = (option: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(option);
    else next.delete(option);
    onChange(next);
  };
  return (
    <fieldset className="admin-choice-list" aria-describedby={error ? `${id}-error` : undefined} aria-invalid={error ? true : undefined} data-field={name}>
      <legend>{legend}</legend>
      <ul>
        {options.map((option) => (
          <li key={option} className="field field--checkbox">
            <input
              id={`${id}-${option}`}
              type="checkbox"
              name={name}
              value={option}
              checked={chosen.has(option)}
              onChange={(event) => toggle(option, event.target.checked)}
            />
            <label htmlFor={`${id}-${option}`}>
              <code>{option}</code>
            </label>
          </li>
        ))}
      </ul>
      <FieldNotes id={id} error={error} />
    </fieldset>
  );
}
