// The users part of /admin (SPEC.md 2.7): a text filter, the sortable table with the visible columns, page
// controls, tick boxes that choose a mailing's recipients, and the outcome of each row action. Filtering,
// sorting and paging happen in the browser over the list loaded once (see user-table.ts for why); only
// one page of rows is ever rendered.
import { useCallback, useDeferredValue, useId, useMemo, useRef, useState } from 'react';
import { nextSort, sortUsers, type SortState } from '../../lib/sort-users.ts';
import type { Column } from '../../lib/user-columns.ts';
import { filterUsers, paginate } from '../../lib/user-table.ts';
import { UserCard } from '../users/UserCard.tsx';
import type { FormMessage } from '../ui/form-errors.ts';
import { $user } from '../../stores/session.ts';
import type { AdminUser } from './admin-api.ts';
import type { Confirm } from '../ui/use-confirm.tsx';
import { LicensePanel } from './LicensePanel.tsx';
import { Pagination } from './Pagination.tsx';
import { UserEditDialog } from './UserEditDialog.tsx';
import { UsersTable } from './UsersTable.tsx';
import { useUserActions } from './use-user-actions.tsx';
import type { AdminDataApi } from './use-admin-data.ts';

interface UsersSectionProps {
  data: AdminDataApi;
  columns: readonly Column[];
  visible: readonly Column[];
  selected: ReadonlySet<number>;
  onSelectedChange: (next: Set<number>) => void;
  confirm: Confirm;
  currentUserId: number | undefined;
}

export function UsersSection({ data, columns, visible, selected, onSelectedChange, confirm, currentUserId }: UsersSectionProps) {
  const filterId = useId();
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const [sort, setSort] = useState<SortState | null>(null);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const { putUser, removeUser } = data;

  const report = useCallback((message: FormMessage, moveFocus = false) => {
    setNotice(message);
    if (moveFocus) requestAnimationFrame(() => noticeRef.current?.focus());
  }, []);
  const remove = useCallback(
    (id: number) => {
      removeUser(id);
      onSelectedChange(new Set([...selected].filter((item) => item !== id)));
    },
    [removeUser, onSelectedChange, selected],
  );
  const actions = useUserActions({ confirm, putUser, removeUser: remove, report });

  // Only what is shown can be searched: a hidden column does not match.
  const searchable = useMemo(() => visible.map((column) => column.key), [visible]);
  const filtered = useMemo(() => filterUsers(data.users, deferredQuery, searchable), [data.users, deferredQuery, searchable]);
  const sorted = useMemo(() => sortUsers(filtered, sort), [filtered, sort]);
  const shown = paginate(sorted, page, pageSize);
  const sortedColumn = sort && columns.find((column) => column.key === sort.field);

  const select = useCallback(
    (ids: number[], on: boolean) => {
      const next = new Set(selected);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      onSelectedChange(next);
    },
    [selected, onSelectedChange],
  );
  const toggleExpanded = useCallback(
    (id: number) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );

  const count = (value: number) => value.toLocaleString('en-GB');
  const caption =
    `Users table${sortedColumn ? `, sorted by ${sortedColumn.label} ${sort?.direction === 1 ? 'ascending' : 'descending'}` : ''}` +
    (shown.pageCount > 1 ? `, page ${count(shown.page)} of ${count(shown.pageCount)}` : '');
  const summary =
    shown.total === 0
      ? 'No users to show.'
      : `Showing ${count(shown.first)}–${count(shown.last)} of ${count(shown.total)} ${shown.total === 1 ? 'user' : 'users'}${shown.total !== data.users.length ? ` (filtered from ${count(data.users.length)})` : ''}.`;

  return (
    <section className="admin-users-section" aria-labelledby="admin-users-heading">
      <div className="admin-panel__head">
        <h2 id="admin-users-heading" className="admin-panel__title">
          Users
        </h2>
        <button type="button" className="button button--secondary button--small" onClick={() => void data.reload()}>
          Reload<span className="sr-only"> the users</span>
        </button>
      </div>
      <div className="admin-users__tools">
        <div className="field admin-users__filter">
          <label className="field__label" htmlFor={filterId}>
            Filter users
          </label>
          <input
            id={filterId}
            type="search"
            className="field__control"
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setPage(1);
            }}
            aria-describedby={`${filterId}-hint`}
            autoComplete="off"
          />
          <p className="field__hint" id={`${filterId}-hint`}>
            Matches text in any visible column.
          </p>
        </div>
        <div className="admin-users__selection">
          <p role="status" aria-live="polite" aria-atomic="true" className="admin-users__summary">
            {data.state === 'loading' ? 'Loading the users…' : summary}
          </p>
          {selected.size > 0 && (
            <p className="admin-users__ticked">
              {selected.size} ticked for a mailing.{' '}
              <button type="button" className="admin-link-button" onClick={() => onSelectedChange(new Set())}>
                Clear
              </button>
            </p>
          )}
        </div>
      </div>
      <div className="admin-users__notice" ref={noticeRef} tabIndex={-1} role="status" aria-live="polite">
        {notice && <p className={`form-message__text form-message__text--${notice.tone}`}>{notice.text}</p>}
      </div>
      {data.state === 'failed' && (
        <p className="form-message__text form-message__text--error">
          The users could not be loaded: {data.loadError}{' '}
          <button type="button" className="admin-link-button" onClick={() => void data.reload()}>
            Try again
          </button>
        </p>
      )}
      <UsersTable
        rows={shown.rows}
        columns={visible}
        sort={sort}
        onSort={(field) => {
          setSort((current) => nextSort(current, field));
          setPage(1);
        }}
        selected={selected}
        onSelect={(id, on) => select([id], on)}
        onSelectMany={select}
        expanded={expanded}
        onToggleExpanded={toggleExpanded}
        currentUserId={currentUserId}
        actions={actions}
        caption={caption}
        empty={data.state === 'loading' ? 'Loading…' : data.users.length === 0 ? 'There are no users.' : 'No user matches the filter.'}
        renderDetails={(user: AdminUser) => (
          <div className="admin-user-details">
            <UserCard user={user} admin title={`Details of ${user.name}`} />
            <LicensePanel
              user={user}
              licenses={data.licensesByUser.get(user.id) ?? []}
              types={data.licenseTypes}
              confirm={confirm}
              onLicense={data.putLicense}
              onLicenseRemoved={data.removeLicense}
              onUser={putUser}
            />
          </div>
        )}
      />
      {shown.total > 0 && (
        <Pagination
          page={shown}
          pageSize={pageSize}
          onPage={setPage}
          onPageSize={(size) => {
            // Keep the first row shown in view.
            setPage(Math.floor((shown.first - 1) / size) + 1);
            setPageSize(size);
          }}
        />
      )}
      <UserEditDialog
        user={actions.editing}
        onCancel={actions.stopEditing}
        onSaved={(user, message) => {
          putUser(user);
          // Your own name changed: the nav bar's account button shows it too.
          if (user.id === currentUserId) $user.set(user);
          actions.stopEditing();
          report({ text: `${message} (${user.name})`, tone: 'success' });
        }}
      />
    </section>
  );
}
