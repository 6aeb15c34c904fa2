// One inbox item (docs/product/admin.md#inbox): a summary button that opens it (and marks it read), then the message or the
// request's details, what happened to it, the replies sent, and its actions.
import { useId, useState } from 'react';
import type { InboxItem } from '../../lib/api/inbox.ts';
import { formatAdminDate } from './dates.ts';
import type { InboxAction } from './InboxDialogs.tsx';

interface InboxItemCardProps {
  item: InboxItem;
  /** The signed-in admin: "Assign to me" or "Unassign" (issue 28, item 23). */
  adminId: number | null;
  onOpen: (item: InboxItem) => void;
  onAction: (item: InboxItem, action: InboxAction) => void;
  onHandled: (item: InboxItem, handled: boolean) => void;
  onAssign: (item: InboxItem, toMe: boolean) => void;
}

const KIND_LABEL = { contact: 'Contact message', 'license-request': 'License request' } as const;

const OUTCOME_LABEL = { granted: 'Trial granted', declined: 'Declined' } as const;

/** A request's answer stays its state even when reopened (issue 28, item 3): another admin must see the work was done. */
function stateOf(item: InboxItem): string {
  if (item.outcome) return item.handled_at ? OUTCOME_LABEL[item.outcome] : `${OUTCOME_LABEL[item.outcome]}, reopened`;
  return item.handled_at ? 'Handled' : 'Open';
}

/** Who granted or declined a request and when (kept after Reopen), and who closed the item. */
function History({ item }: { item: InboxItem }) {
  const decided = item.outcome !== null && item.decided_at !== null;
  const handledApart = item.handled_at !== null && (!decided || item.handled_at !== item.decided_at);
  if (!decided && !handledApart) return null;
  return (
    <>
      {decided && item.outcome && item.decided_at && (
        <p className="admin-inbox__history" data-inbox-decision={item.outcome}>
          {OUTCOME_LABEL[item.outcome]}
          {item.decided_by ? ` by ${item.decided_by.name}` : ''} on <time dateTime={item.decided_at}>{formatAdminDate(item.decided_at, true)}</time>.
          {item.decline_reason && item.outcome === 'declined' && <> Reason: {item.decline_reason}</>}
        </p>
      )}
      {handledApart && item.handled_at && (
        <p className="admin-inbox__history">
          Handled{item.handled_by ? ` by ${item.handled_by.name}` : ''} on <time dateTime={item.handled_at}>{formatAdminDate(item.handled_at, true)}</time>.
        </p>
      )}
    </>
  );
}

function Replies({ item }: { item: InboxItem }) {
  if (item.replies.length === 0) return null;
  return (
    <section className="admin-inbox__replies" aria-label={`Replies to ${item.name}`}>
      <h4 className="admin-inbox__subheading">Conversation</h4>
      <ol>
        {item.replies.map((reply) => (
          <li key={reply.id} className={reply.author === 'user' ? 'admin-inbox__reply admin-inbox__reply--user' : 'admin-inbox__reply'}>
            <p className="admin-inbox__reply-meta">
              {/* The user's answers from their dashboard (issue 28, section 1) read as theirs, not as a reply sent. */}
              <strong>{reply.author === 'user' ? `Answer from ${item.name}` : reply.subject}</strong> –{' '}
              {reply.author === 'user' ? 'from their dashboard' : (reply.sent_by?.name ?? 'a former admin')},{' '}
              <time dateTime={reply.created_at}>{formatAdminDate(reply.created_at, true)}</time>
            </p>
            <p className="admin-inbox__text">{reply.message}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

export function InboxItemCard({ item, adminId, onOpen, onAction, onHandled, onAssign }: InboxItemCardProps) {
  const mine = item.assigned_to !== null && item.assigned_to.id === adminId;
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const unread = item.read_at === null;
  // Answered once (granted or declined) is answered for good, even when reopened: the server refuses a second answer.
  const openRequest = item.kind === 'license-request' && item.handled_at === null && item.outcome === null;
  const toggle = () => {
    const opening = !open;
    setOpen(opening);
    if (opening && unread) onOpen(item);
  };
  return (
    <li className={unread ? 'admin-inbox__item admin-inbox__item--unread' : 'admin-inbox__item'} data-inbox-item={`${item.kind}:${item.id}`}>
      <button type="button" className="admin-inbox__summary" aria-expanded={open} aria-controls={detailsId} onClick={toggle}>
        <span className="admin-inbox__line">
          <span className="admin-inbox__kind">{KIND_LABEL[item.kind]}</span>
          {unread && <span className="admin-badge admin-badge--new">New</span>}
          <span className="admin-badge">{stateOf(item)}</span>
          {item.assigned_to && <span className="admin-badge">{mine ? 'Assigned to you' : `Assigned to ${item.assigned_to.name}`}</span>}
          <time className="admin-inbox__date" dateTime={item.created_at}>
            {formatAdminDate(item.created_at, true)}
          </time>
        </span>
        <span className="admin-inbox__from">
          <strong>{item.name}</strong> <span className="admin-inbox__email">{item.email}</span>
        </span>
        {item.message && <span className="admin-inbox__preview">{item.message}</span>}
      </button>
      <div id={detailsId} className="admin-inbox__details" hidden={!open}>
        {open && (
          <>
            {item.message !== null ? (
              <p className="admin-inbox__text">{item.message}</p>
            ) : (
              <p>
                Asks for a free trial license.{item.company && <> Company: {item.company}.</>} User ID {item.user_id}.
              </p>
            )}
            {item.assigned_to && <p className="admin-inbox__assignee">{mine ? 'You are answering this.' : `${item.assigned_to.name} is answering this.`}</p>}
            <History item={item} />
            <Replies item={item} />
            <div className="admin-inbox__actions">
              <button type="button" className="button button--small" aria-haspopup="dialog" onClick={() => onAction(item, 'reply')}>
                Reply
              </button>
              {openRequest && (
                <>
                  <button type="button" className="button button--small" aria-haspopup="dialog" onClick={() => onAction(item, 'grant')}>
                    Grant Trial
                  </button>
                  <button
                    type="button"
                    className="button button--small button--admin-danger-outline"
                    aria-haspopup="dialog"
                    onClick={() => onAction(item, 'decline')}
                  >
                    Decline
                  </button>
                </>
              )}
              <button type="button" className="button button--small button--secondary" onClick={() => onAssign(item, !mine)}>
                {mine ? 'Unassign' : item.assigned_to ? 'Assign to me instead' : 'Assign to me'}
              </button>
              <button type="button" className="button button--small button--secondary" onClick={() => onHandled(item, item.handled_at === null)}>
                {item.handled_at === null ? 'Mark Handled' : 'Reopen'}
              </button>
            </div>
          </>
        )}
      </div>
    </li>
  );
}
