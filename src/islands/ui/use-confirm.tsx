// Ok/Cancel before every delete, ban or other step that cannot be undone (docs/admin-api.md), as the
// islands' modal dialog rather than window.confirm: styled like the rest, naming the action on its
// button, starting on Cancel (an Enter pressed by habit deletes nothing) and giving focus back to the
// button that asked. The one hook for it: `const { confirm, dialog } = useConfirm()`, render `dialog`,
// and `await confirm({ message, … })` resolves true on Ok.
import { useState, type ReactNode } from 'react';
import { Dialog } from './Dialog.tsx';
import { createConfirmAsker, type Confirm, type Question } from './confirm-question.ts';

export { HARD_DELETE_WARNING, type Confirm, type ConfirmRequest } from './confirm-question.ts';

interface ConfirmDialogProps {
  question: Question | null;
  onAnswer: (confirmed: boolean) => void;
}

export function ConfirmDialog({ question, onAnswer }: ConfirmDialogProps) {
  return (
    <Dialog title={question?.title ?? ''} open={question !== null} onClose={() => onAnswer(false)}>
      {question && (
        <div className="confirm">
          <p className="confirm__message">{question.message}</p>
          {question.detail && <div className="confirm__detail">{question.detail}</div>}
          <div className="form__actions confirm__actions">
            <button type="button" className={question.danger ? 'button button--danger' : 'button'} onClick={() => onAnswer(true)}>
              {question.confirmLabel}
            </button>
            <button type="button" className="button button--secondary" onClick={() => onAnswer(false)} data-autofocus="">
              Cancel
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

export function useConfirm(): { confirm: Confirm; dialog: ReactNode } {
  const [question, setQuestion] = useState<Question | null>(null);
  // One asker per component: its pending answer outlives re-renders.
  const [asker] = useState(() => createConfirmAsker(setQuestion));
  return { confirm: asker.ask, dialog: <ConfirmDialog question={question} onAnswer={asker.answer} /> };
}
