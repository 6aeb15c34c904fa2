// A secret the server shows exactly once (a webhook's signing secret, an API token): in a box the admin can copy
// from, with the warning that it cannot be shown again. Dismissed by the admin, never by a timer.
import { useId } from 'react';
import { CopyButton } from '../ui/CopyButton.tsx';

export function ShownOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const id = useId();
  return (
    <div className="admin-shown-once" role="group" aria-labelledby={`${id}-label`}>
      <p id={`${id}-label`} className="admin-shown-once__label">
        <strong>{label}</strong>: copy it now, it is not shown again.
      </p>
      <p className="admin-shown-once__value">
        <code id={`${id}-value`}>{value}</code> <CopyButton targetId={`${id}-value`} label={`Copy the ${label.toLowerCase()}`} />
      </p>
      <button type="button" className="button button--secondary" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}
