// The Ok/Cancel confirmations of docs/product/states.md, docs/product/messages.md#error-catalogue ('This operation will hard delete data from database!!!',
// 'Are you sure you want to BAN/UNBAN {user}?') as the islands' accessible modal instead of
// window.confirm: it is styled like the rest, names the action on its button, and starts on Cancel, so
// an Enter pressed by habit does not delete anything.
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Dialog } from '../ui/Dialog.tsx';

export interface ConfirmRequest {
  title: string;
  message: string;
  /** What the confirming button says ('Delete User', 'Ban'). */
  confirmLabel: string;
  /** Further detail under the message (who or what is affected). */
  detail?: ReactNode;
  danger?: boolean;
}

interface Pending extends ConfirmRequest {
  resolve: (confirmed: boolean) => void;
}

/** Returns the dialog element to render and an async confirm() that resolves true on Ok. */
export function useConfirm(): [ReactNode, (request: ConfirmRequest) => Promise<boolean>] {
  const [pending, setPending] = useState<Pending | null>(null);
  const settled = useRef(false);

  const confirm = useCallback(
    (request: ConfirmRequest) =>
      new Promise<boolean>((resolve) => {
        settled.current = false;
        setPending({ ...request, resolve });
      }),
    [],
  );

  const finish = (confirmed: boolean) => {
    if (!pending || settled.current) return;
    settled.current = true;
    pending.resolve(confirmed);
    setPending(null);
  };

  const element = (
    <Dialog title={pending?.title ?? ''} open={pending !== null} onClose={() => finish(false)}>
      {pending && (
        <div className="admin-confirm">
          <p className="admin-confirm__message">{pending.message}</p>
          {pending.detail && <div className="admin-confirm__detail">{pending.detail}</div>}
          <div className="form__actions">
            <button type="button" className={pending.danger ? 'button button--admin-danger' : 'button'} onClick={() => finish(true)}>
              {pending.confirmLabel}
            </button>
            <button type="button" className="button button--secondary" onClick={() => finish(false)} data-autofocus="">
              Cancel
            </button>
          </div>
        </div>
      )}
    </Dialog>
  );

  return [element, confirm];
}
