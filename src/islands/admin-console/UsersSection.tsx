// The users part of /admin (docs/product/admin.md#admin-screen): a text filter, the sortable table with the visible columns, page
// controls, tick boxes that choose a mailing's recipients, and the outcome of each row action. Filtering,
// sorting and paging happen in the browser over the list loaded once (see user-table.ts for why); only
// one page of rows is ever rendered.
import { useCallback, useId, useRef, useState } from 'react';
import type { Column } from '../../lib/user-columns.ts';
import { UserCard } from '../dashboard/UserCard.tsx';
import type { FormMessage } from '../ui/form-errors.ts';
import { $user } from '../../stores/session.ts';
import type { AdminUser } from '../../lib/api/admin.ts';
import type { Confirm } from '../ui/use-confirm.tsx';
import { UserSessions } from './UserSessions.tsx';
import { LicensePanel } from './LicensePanel.tsx';
import { Pagination } from './Pagination.tsx';
import { UserEditDialog } from './UserEditDialog.tsx';
import { UsersTable } from './UsersTable.tsx';
import { useUserActions } from './use-user-actions.tsx';
import { useUsersView } from './use-users-view.ts';
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

interface UsersToolsProps {
  query: string;
  onQuery: (value: string) => void;
  /** What the list shows ('Showing 1–50 of 80 users.'), announced as it changes. */
  status: string;
  ticked: number;
  onClearTicked: () => void;
}

function UsersTools({ query, onQuery, status, ticked, onClearTicked }: UsersToolsProps) {
  const filterId = useId();
  return (
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
          onChange={(event) => onQuery(event.target.value)}
          aria-describedby={`${filterId}-hint`}
          autoComplete="off"
        />
        <p className="field__hint" id={`${filterId}-hint`}>
          Matches text in any visible column.
        </p>
      </div>
      <div className="admin-users__selection">
        <p role="status" aria-live="polite" aria-atomic="true" className="admin-users__summary">
          {status}
        </p>
        {ticked > 0 && (
          <p className="admin-users__ticked">
            {ticked} ticked for a mailing.{' '}
            <button type="button" className="admin-link-button" onClick={onClearTicked}>
              Clear
            </button>
          </p>
        )}
      </div>
    </div>
  );
}

/** Ticks and unticks rows for a mailing; a deleted user is unticked. */
function useSelection(selected: ReadonlySet<number>, onSelectedChange: (next: Set<number>) => void) {
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
  const unselect = useCallback((id: number) => onSelectedChange(new Set([...selected].filter((item) => item !== id))), [selected, onSelectedChange]);
  return { select, unselect };
}

function useExpanded(): [ReadonlySet<number>, (id: number) => void] {
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const toggle = useCallback(
    (id: number) =>
      setExpanded((current) => {
        const next = new Set(current);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  return [expanded, toggle];
}

/** The outcome of the last row action; `moveFocus` when the control that had focus is gone. */
function useReport() {
  const [notice, setNotice] = useState<FormMessage | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  const report = useCallback((message: FormMessage, moveFocus = false) => {
    setNotice(message);
    if (moveFocus) requestAnimationFrame(() => noticeRef.current?.focus());
  }, []);
  const element = (
    <div className="admin-users__notice" ref={noticeRef} tabIndex={-1} role="status" aria-live="polite">
      {notice && <p className={`form-message__text form-message__text--${notice.tone}`}>{notice.text}</p>}
    </div>
  );
  return { report, element };
}

function UserDetails({ user, data, confirm }: { user: AdminUser; data: AdminDataApi; confirm: Confirm }) {
  return (
    <div className="admin-user-details">
      <UserCard user={user} admin title={`Details of ${user.name}`} />
      <LicensePanel
        user={user}
        licenses={data.licensesByUser.get(user.id) ?? []}
        types={data.licenseTypes}
        confirm={confirm}
        onLicense={data.putLicense}
        onLicenseRemoved={data.removeLicense}
        onUser={data.putUser}
      />
      <UserSessions user={user} confirm={confirm} />
    </div>
  );
}

export function UsersSection({ data, columns, visible, selected, onSelectedChange, confirm, currentUserId }: UsersSectionProps) {
  const view = useUsersView(data.users, columns, visible);
  const [expanded, toggleExpanded] = useExpanded();
  const { select, unselect } = useSelection(selected, onSelectedChange);
  const { report, element: notice } = useReport();
  const { putUser, removeUser } = data;
  const remove = useCallback(
    (id: number) => {
      removeUser(id);
      unselect(id);
    },
    [removeUser, unselect],
  );
  const actions = useUserActions({ confirm, putUser, removeUser: remove, report });

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
      <UsersTools
        query={view.query}
        onQuery={view.filter}
        status={data.state === 'loading' ? 'Loading the users…' : view.summary}
        ticked={selected.size}
        onClearTicked={() => onSelectedChange(new Set())}
      />
      {notice}
      {data.state === 'failed' && (
        <p className="form-message__text form-message__text--error">
          The users could not be loaded: {data.loadError}{' '}
          <button type="button" className="admin-link-button" onClick={() => void data.reload()}>
            Try again
          </button>
        </p>
      )}
      <UsersTable
        rows={view.shown.rows}
        columns={visible}
        sort={view.sort}
        onSort={view.sortBy}
        selected={selected}
        onSelect={(id, on) => select([id], on)}
        onSelectMany={select}
        expanded={expanded}
        onToggleExpanded={toggleExpanded}
        currentUserId={currentUserId}
        actions={actions}
        caption={view.caption}
        empty={data.state === 'loading' ? 'Loading…' : data.users.length === 0 ? 'There are no users.' : 'No user matches the filter.'}
        renderDetails={(user: AdminUser) => <UserDetails user={user} data={data} confirm={confirm} />}
      />
      {view.shown.total > 0 && <Pagination page={view.shown} pageSize={view.pageSize} onPage={view.setPage} onPageSize={view.resize} />}
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
