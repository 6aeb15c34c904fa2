// The admin inbox on /admin (docs/product/admin.md#inbox; issue 14, part 1): contact messages and license requests, newest
// first, with the unread count, a search over name, e-mail and message, and a filter (open / handled / all). The nav bar's
// badge links here (#inbox).
import { useEffect, useId, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { assignInboxItem, markInboxHandled, markInboxRead, reopenInboxItem, type InboxItem, type InboxStatus } from '../../lib/api/inbox.ts';
import { $user } from '../../stores/session.ts';
import type { AdminUser, License } from '../../lib/api/admin.ts';
import { ApiError } from '../../lib/api/request.ts';
import { Message } from '../ui/Message.tsx';
import type { FormMessage } from '../ui/form-errors.ts';
import { InboxActionDialog, type InboxAction, type InboxDone } from './InboxDialogs.tsx';
import { InboxItemCard } from './InboxItemCard.tsx';
import { Pagination } from './Pagination.tsx';
import { itemKey, useInbox } from './use-inbox.ts';

const STATUSES: ReadonlyArray<{ value: InboxStatus; label: string }> = [
  { value: 'open', label: 'Open' },
  { value: 'handled', label: 'Handled' },
  { value: 'all', label: 'All' },
];

const failureText = (error: unknown) => (error instanceof ApiError ? error.message : 'The server could not be reached.');

interface InboxPanelProps {
  /** A grant or decline changed a user (and a grant added a license): the users table shows it at once. */
  onUserChanged?: (user: AdminUser, license?: License) => void;
}

export function InboxPanel({ onUserChanged }: InboxPanelProps = {}) {
  const inbox = useInbox();
  const { page, query } = inbox;
  const id = useId();
  const sectionRef = useRef<HTMLElement>(null);
  const [search, setSearch] = useState('');
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const [dialog, setDialog] = useState<{ item: InboxItem; action: InboxAction } | null>(null);

  // Arriving from the nav bar's badge (/admin#inbox): the console mounts after the browser looked for the anchor.
  const arrived = useRef(false);
  useEffect(() => {
    if (arrived.current || inbox.state !== 'ready') return;
    arrived.current = true;
    if (window.location.hash === '#inbox') {
      sectionRef.current?.scrollIntoView({ block: 'start' });
      sectionRef.current?.focus({ preventScroll: true });
    }
  }, [inbox.state]);

  const open = (item: InboxItem) => {
    markInboxRead(item)
      .then((answer) => inbox.putItem(answer.item, answer.unread))
      .catch((error: unknown) => console.error('Could not mark the item read', error));
  };

  const changeHandled = async (item: InboxItem, handled: boolean) => {
    setNotice(null);
    try {
      const answer = await (handled ? markInboxHandled(item) : reopenInboxItem(item));
      inbox.putItem(answer.item, answer.unread);
      setNotice({ text: `${answer.message} (${item.name})`, tone: 'success' });
    } catch (error) {
      setNotice({ text: failureText(error), tone: 'error' });
    }
  };

  const changeAssignee = async (item: InboxItem, toMe: boolean) => {
    setNotice(null);
    try {
      const answer = await assignInboxItem(item, toMe);
      inbox.putItem(answer.item, answer.unread);
      setNotice({ text: `${answer.message} (${item.name})`, tone: 'success' });
    } catch (error) {
      setNotice({ text: failureText(error), tone: 'error' });
    }
  };

  const done = ({ item, unread, message, user, license }: InboxDone) => {
    inbox.putItem(item, unread);
    if (user) onUserChanged?.(user, license);
    setDialog(null);
    setNotice({ text: message, tone: 'success' });
  };

  const adminId = useStore($user)?.id ?? null;
  const items = page?.items ?? [];
  const unread = page?.unread ?? 0;
  return (
    <section ref={sectionRef} id="inbox" className="admin-panel admin-inbox" aria-labelledby={`${id}-heading`} tabIndex={-1}>
      <div className="admin-panel__head">
        <h2 id={`${id}-heading`} className="admin-panel__title">
          Inbox{' '}
          {unread > 0 && (
            <span className="admin-badge admin-badge--unread" data-inbox-unread={unread}>
              {unread} unread
            </span>
          )}
        </h2>
        <button type="button" className="button button--secondary button--small" onClick={() => void inbox.reload()}>
          Refresh<span className="sr-only"> the inbox</span>
        </button>
      </div>

      <form
        role="search"
        aria-label="Inbox"
        className="admin-inbox__tools"
        onSubmit={(event) => {
          event.preventDefault();
          inbox.setQuery({ ...query, q: search, page: 1 });
        }}
      >
        <div className="admin-inbox__search">
          <label htmlFor={`${id}-search`}>Search</label>
          <input
            id={`${id}-search`}
            type="search"
            className="field__control"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Name, e-mail or message"
          />
          <button type="submit" className="button button--small">
            Search
          </button>
        </div>
        <div className="admin-inbox__filter">
          <label htmlFor={`${id}-status`}>Show</label>
          <select
            id={`${id}-status`}
            className="field__control"
            value={query.status}
            onChange={(event) => inbox.setQuery({ ...query, q: search, status: event.target.value as InboxStatus, page: 1 })}
          >
            {STATUSES.map((status) => (
              <option key={status.value} value={status.value}>
                {status.label}
              </option>
            ))}
          </select>
        </div>
      </form>

      <Message message={notice} />
      {inbox.state === 'failed' && <p className="form-message__text form-message__text--error">The inbox could not be loaded: {inbox.loadError}</p>}
      {page === null && inbox.state === 'loading' && <p className="empty-note">Loading the inbox…</p>}
      {page !== null && items.length === 0 && page.matches_elsewhere > 0 && query.status !== 'all' && (
        // Issue 28, item 13: the search did find something, under the other status.
        <div className="empty-note admin-inbox__elsewhere" role="status">
          <p>
            No {query.status} item matches the search, but {page.matches_elsewhere} {query.status === 'open' ? 'handled' : 'open'}{' '}
            {page.matches_elsewhere === 1 ? 'item does' : 'items do'}.
          </p>
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={() => inbox.setQuery({ ...query, q: search, status: 'all', page: 1 })}
          >
            Show: All
          </button>
        </div>
      )}
      {page !== null && items.length === 0 && page.matches_elsewhere === 0 && (
        <p className="empty-note">
          {query.q ? 'Nothing matches the search.' : query.status === 'open' ? 'No open messages or requests.' : 'The inbox is empty.'}
        </p>
      )}
      {items.length > 0 && (
        <ol className="admin-inbox__list" aria-label={`Inbox items, page ${page?.page ?? 1}`}>
          {items.map((item) => (
            <InboxItemCard
              key={itemKey(item)}
              item={item}
              adminId={adminId}
              onOpen={open}
              onAssign={(target, toMe) => void changeAssignee(target, toMe)}
              onAction={(target, action) => setDialog({ item: target, action })}
              onHandled={(target, handled) => void changeHandled(target, handled)}
            />
          ))}
        </ol>
      )}
      {page && page.page_count > 1 && (
        <Pagination
          label="Inbox pages"
          page={{ rows: [], page: page.page, pageCount: page.page_count, first: 0, last: 0, total: page.total }}
          pageSize={page.page_size}
          onPage={(next) => inbox.setQuery({ ...query, page: next })}
        />
      )}
      <InboxActionDialog action={dialog?.action ?? null} item={dialog?.item ?? null} onDone={done} onClose={() => setDialog(null)} />
    </section>
  );
}
