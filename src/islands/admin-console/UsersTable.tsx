// The users table itself: sortable headers (real buttons; aria-sort on the sorted column's header) and
// one page of rows. It scrolls sideways inside a labelled, focusable region, so on a narrow window
// keyboard users can scroll it with the arrow keys and screen readers announce what they are in.
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { ariaSortOf, type SortState } from '../../lib/sort-users.ts';
import type { Column } from '../../lib/user-columns.ts';
import type { AdminUser } from '../../lib/api/admin.ts';
import { UserRow, type RowActions } from './UserRow.tsx';

function SelectPage({
  rows,
  selected,
  onSelectMany,
}: {
  rows: readonly AdminUser[];
  selected: ReadonlySet<number>;
  onSelectMany: (ids: number[], selected: boolean) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  const ticked = rows.filter((user) => selected.has(user.id)).length;
  const all = rows.length > 0 && ticked === rows.length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = ticked > 0 && !all;
  }, [ticked, all]);
  return (
    <input
      ref={ref}
      type="checkbox"
      checked={all}
      disabled={rows.length === 0}
      onChange={(event) =>
        onSelectMany(
          rows.map((user) => user.id),
          event.target.checked,
        )
      }
      aria-label="Select every user on this page for a mailing"
    />
  );
}

interface UsersTableProps {
  rows: readonly AdminUser[];
  columns: readonly Column[];
  sort: SortState | null;
  onSort: (field: string) => void;
  selected: ReadonlySet<number>;
  onSelect: (id: number, selected: boolean) => void;
  onSelectMany: (ids: number[], selected: boolean) => void;
  expanded: ReadonlySet<number>;
  onToggleExpanded: (id: number) => void;
  currentUserId: number | undefined;
  actions: RowActions;
  caption: string;
  renderDetails: (user: AdminUser) => ReactNode;
  empty: string;
}

export function UsersTable(props: UsersTableProps) {
  const { rows, columns, sort, onSort, selected, onSelect, onSelectMany, expanded, onToggleExpanded, currentUserId, actions, caption, renderDetails, empty } =
    props;
  const captionId = useId();
  return (
    <div className="admin-users__scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
      <table className="admin-users">
        <caption id={captionId} className="admin-users__caption">
          {caption}
        </caption>
        <thead>
          <tr>
            <td className="admin-users__select">
              <SelectPage rows={rows} selected={selected} onSelectMany={onSelectMany} />
            </td>
            <th scope="col" className="admin-users__actions">
              Actions
            </th>
            {columns.map((column) => {
              const state = ariaSortOf(sort, column.key);
              return (
                <th
                  key={column.key}
                  scope="col"
                  aria-sort={state === 'none' ? undefined : state}
                  className={`admin-users__head admin-users__head--${column.kind}`}
                >
                  <button type="button" className="admin-sort-button" onClick={() => onSort(column.key)}>
                    {column.label}
                    <span className={`admin-sort-button__icon admin-sort-button__icon--${state}`} aria-hidden="true"></span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length + 2} className="admin-users__empty">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                columns={columns}
                selected={selected.has(user.id)}
                onSelect={onSelect}
                expanded={expanded.has(user.id)}
                onToggleExpanded={onToggleExpanded}
                isSelf={user.id === currentUserId}
                actions={actions}
                details={expanded.has(user.id) ? renderDetails(user) : null}
              />
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
