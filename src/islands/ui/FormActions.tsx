// The submit button and Cancel under a dialog's form: the same pair on every edit dialog.
import { SubmitButton } from './SubmitButton.tsx';

interface FormActionsProps {
  label: string;
  busyLabel: string | undefined;
  onCancel: () => void;
}

export function FormActions({ label, busyLabel, onCancel }: FormActionsProps) {
  return (
    <div className="form__actions">
      <SubmitButton label={label} busyLabel={busyLabel} />
      <button type="button" className="button button--secondary" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
