// 'Table Display Filter' (docs/product/admin.md#admin-screen): one checkbox per column, all visible at first. Each tick applies at
// once (the table is visible behind the dialog's backdrop) and the owner remembers the choice in the
// browser (src/lib/user-columns.ts).
import { useId } from 'react';
import type { Column } from '../../lib/user-columns.ts';
import { Dialog } from '../ui/Dialog.tsx';

interface ColumnsDialogProps {
  open: boolean;
  columns: readonly Column[];
  hidden: ReadonlySet<string>;
  onChange: (hidden: Set<string>) => void;
  onClose: () => void;
}

export function ColumnsDialog({ open, columns, hidden, onChange, onClose }: ColumnsDialogProps) {
  const id = useId();
  const toggle = (key: string, visible: boolean) => {
    const next = new Set(hidden);
    if (visible) next.delete(key);
    else next.add(key);
    onChange(next);
  };
  return (
    <Dialog title="Table Display Filter" open={open} onClose={onClose}>
      <fieldset className="admin-column-chooser">
        <legend className="admin-column-chooser__legend">Columns shown in the users table</legend>
        {columns.length === 0 && <p className="empty-note">The columns appear once the users are loaded.</p>}
        <ul className="admin-column-chooser__list">
          {columns.map((column, index) => (
            <li key={column.key} className="field field--checkbox">
              <input
                id={`${id}-${column.key}`}
                type="checkbox"
                checked={!hidden.has(column.key)}
                onChange={(event) => toggle(column.key, event.target.checked)}
                data-autofocus={index === 0 ? '' : undefined}
              />
              <label htmlFor={`${id}-${column.key}`}>{column.label}</label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="form__actions">
        <button type="button" className="button" onClick={onClose}>
          Done
        </button>
        <button type="button" className="button button--secondary" onClick={() => onChange(new Set())}>
          Show all columns
        </button>
      </div>
    </Dialog>
  );
}
