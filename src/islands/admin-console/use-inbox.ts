// The inbox panel's state (docs/product/admin.md#inbox): the filter, the search, the page, the items shown, and every write's
// answer put back in place. Each answer carries the unread count, which goes into the nav bar's badge ($inboxUnread).
import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../lib/api/request.ts';
import { listInbox, type InboxItem, type InboxPage, type InboxStatus } from '../../lib/api/inbox.ts';
import { $inboxUnread } from '../../stores/session.ts';
import type { LoadState } from './use-admin-data.ts';

export interface InboxQuery {
  status: InboxStatus;
  q: string;
  page: number;
}

export interface InboxApi {
  query: InboxQuery;
  setQuery: (query: InboxQuery) => void;
  state: LoadState;
  loadError: string | null;
  page: InboxPage | null;
  reload: () => Promise<void>;
  /** A write's answer: the item as it is now (kept in view even when it no longer matches the filter) and the unread count. */
  putItem: (item: InboxItem, unread: number) => void;
}

export const itemKey = (item: Pick<InboxItem, 'kind' | 'id'>) => `${item.kind}:${item.id}`;

export function useInbox(): InboxApi {
  const [query, setQuery] = useState<InboxQuery>({ status: 'open', q: '', page: 1 });
  const [state, setState] = useState<LoadState>('loading');
  const [loadError, setLoadError] = useState<string | null>(null);
  const [page, setPage] = useState<InboxPage | null>(null);

  const reload = useCallback(async () => {
    setState('loading');
    try {
      const answer = await listInbox(query);
      setPage(answer);
      $inboxUnread.set(answer.unread);
      setLoadError(null);
      setState('ready');
    } catch (error) {
      console.error('Could not load the inbox', error);
      setLoadError(error instanceof ApiError ? error.message : 'The server could not be reached.');
      setState('failed');
    }
  }, [query]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const putItem = useCallback((item: InboxItem, unread: number) => {
    // Left in the list until the next load: an item marked handled under "Open" stays in view with its new state, so the
    // admin sees what happened and can Reopen it at once.
    setPage((current) => current && { ...current, unread, items: current.items.map((candidate) => (itemKey(candidate) === itemKey(item) ? item : candidate)) });
    $inboxUnread.set(unread);
  }, []);

  return { query, setQuery, state, loadError, page, reload, putItem };
}
