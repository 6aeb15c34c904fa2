// The submit button and Cancel under a dialog's form: the same pair on every edit dialog.
import { SubmitButton } from './SubmitButton.tsx';

interface FormActionsProps {
  label: string;
  busyLabel: string | undefined;
  onCancel: () => void;
  /** Styles the submit button as destructive (deleting the account). */
  danger?: boolean;
  /** 'Close' once a save succeeded and there is nothing left to cancel (issue 28, 2.19). */
  cancelLabel?: 'Cancel' | 'Close';
}

export function FormActions({ label, busyLabel, onCancel, danger = false, cancelLabel = 'Cancel' }: FormActionsProps) {
  return (
    <div className="form__actions">
      <SubmitButton label={label} busyLabel={busyLabel} className={danger ? 'button button--danger' : 'button'} />
      <button type="button" className="button button--secondary" onClick={onCancel}>
        {cancelLabel}
      </button>
    </div>
  );
}
