// The top of both content overlays (the posts screens and the home page): the Admin bar with the screen's
// buttons and the publish status, the notice that reports each change (focusable: it takes focus when the
// pressed button is gone), and the warning when the API's data could not be loaded.
import type { ReactNode } from 'react';
import { Message } from '../ui/Message.tsx';
import { PublishState } from '../ui/PublishState.tsx';
import type { FormMessage } from '../ui/form-errors.ts';

interface ContentAdminHeadProps {
  noticeId: string;
  notice: FormMessage | null;
  /** The warning to show when loading failed, or null. */
  loadFailure: string | null;
  /** The bar's buttons. */
  children: ReactNode;
}

export function ContentAdminHead({ noticeId, notice, loadFailure, children }: ContentAdminHeadProps) {
  return (
    <>
      <div className="content-admin__bar">
        <span className="content-admin__label">Admin</span>
        {children}
        <PublishState />
      </div>
      <div className="content-admin__notice" id={noticeId} tabIndex={-1}>
        <Message message={notice} />
      </div>
      {loadFailure && (
        <p className="notice notice--warning" role="alert">
          {loadFailure}
        </p>
      )}
    </>
  );
}
