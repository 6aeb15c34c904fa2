// The state behind the one confirmation dialog (ui/use-confirm.tsx), kept free of React so its rules are
// tested on their own: `ask()` resolves with the answer; a second question replaces an unanswered first
// one, which counts as cancelled; an answer given twice (a double click, Escape after Ok) counts once.
import type { ReactNode } from 'react';

/** The hard-delete warning of the product's texts (docs/admin-api.md), shown before every hard delete. */
export const HARD_DELETE_WARNING = 'This operation will hard delete data from database!!!';

export interface ConfirmRequest {
  /** The dialog's title; 'Please confirm' when left out. */
  title?: string;
  message: string;
  /** What the confirming button says ('Delete User', 'Ban'); 'Ok' when left out. */
  confirmLabel?: string;
  /** Further detail under the message (who or what is affected). */
  detail?: ReactNode;
  /** Styles the confirming button as destructive; true unless said otherwise, since most questions guard a delete. */
  danger?: boolean;
}

export type Confirm = (request: ConfirmRequest) => Promise<boolean>;

export type Question = Required<Omit<ConfirmRequest, 'detail'>> & Pick<ConfirmRequest, 'detail'>;

export interface ConfirmAsker {
  ask: Confirm;
  answer: (confirmed: boolean) => void;
}

export function createConfirmAsker(show: (question: Question | null) => void): ConfirmAsker {
  let pending: ((confirmed: boolean) => void) | null = null;
  const settle = (confirmed: boolean) => {
    const resolve = pending;
    pending = null;
    resolve?.(confirmed);
  };
  return {
    ask: ({ title = 'Please confirm', message, confirmLabel = 'Ok', detail, danger = true }) => {
      settle(false);
      show({ title, message, confirmLabel, detail, danger });
      return new Promise<boolean>((resolve) => {
        pending = resolve;
      });
    },
    answer: (confirmed) => {
      if (!pending) return;
      settle(confirmed);
      show(null);
    },
  };
}
