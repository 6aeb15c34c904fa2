// Ok/Cancel before every delete (docs/product/states.md#deletes), as a modal dialog rather than window.confirm: it
// is styled like the rest, says which item goes, and keeps focus handling in our hands (focus starts on
// Cancel, the safe choice, and returns to the button that asked). `confirm()` resolves with the answer.
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Dialog } from '../ui/Dialog.tsx';

/** The hard-delete warning of docs/product/messages.md#error-catalogue. */
export const HARD_DELETE_WARNING = 'This operation will hard delete data from database!!!';

interface Question {
  title: string;
  message: string;
  confirmLabel: string;
}

export type Confirm = (question: { title?: string; message: string; confirmLabel?: string }) => Promise<boolean>;

export function useConfirm(): { confirm: Confirm; dialog: ReactNode } {
  const [question, setQuestion] = useState<Question | null>(null);
  const resolver = useRef<((answer: boolean) => void) | null>(null);

  const answer = useCallback((value: boolean) => {
    resolver.current?.(value);
    resolver.current = null;
    setQuestion(null);
  }, []);

  const confirm = useCallback<Confirm>(({ title = 'Please confirm', message, confirmLabel = 'Ok' }) => {
    // A second question replaces an unanswered first one, which counts as cancelled.
    resolver.current?.(false);
    setQuestion({ title, message, confirmLabel });
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const dialog = (
    <Dialog title={question?.title ?? ''} open={question !== null} onClose={() => answer(false)}>
      <p className="confirm__message">{question?.message}</p>
      <p className="confirm__actions">
        <button type="button" className="button button--danger" onClick={() => answer(true)}>
          {question?.confirmLabel}
        </button>
        <button type="button" className="button button--secondary" onClick={() => answer(false)} data-autofocus="">
          Cancel
        </button>
      </p>
    </Dialog>
  );

  return { confirm, dialog };
}
