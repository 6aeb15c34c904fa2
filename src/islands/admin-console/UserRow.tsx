// One user in the admin table (docs/product/admin.md#admin-screen): a tick box for mailings, the Actions column (Details, and
// a compact menu with Edit User, Delete User, Ban/UnBan, so the table fits a desktop window without
// sideways scrolling) and one cell per visible field. On the admin's own row Delete User and Ban are
// disabled with the reason, instead of being refused after the confirmation. A banned user's row is styled apart and
// says 'Banned' in words too, so the difference does not rest on colour alone. Details opens the user
// card with the admin extras and the license table in a row underneath.
import type { ReactNode } from 'react';
import { MenuButton, type MenuItem } from '../ui/MenuButton.tsx';
import { SELF_BAN_REFUSED, SELF_DELETE_REFUSED } from './messages.ts';
import { formatAdminDate } from './dates.ts';
import type { Column } from '../../lib/user-columns.ts';
import { YesNo } from '../dashboard/YesNo.tsx';
import type { AdminUser } from '../../lib/api/admin.ts';

export interface RowActions {
  onEdit: (user: AdminUser) => void;
  onDelete: (user: AdminUser) => void;
  onBan: (user: AdminUser) => void;
}

function CellValue({ column, value }: { column: Column; value: unknown }) {
  if (column.kind === 'flag') return <YesNo value={value} />;
  if (value === null || value === undefined || value === '') return null;
  if (column.kind === 'date' && typeof value === 'string') {
    const text = formatAdminDate(value, true);
    return text ? <time dateTime={value}>{text}</time> : <>{value}</>;
  }
  return <>{String(value)}</>;
}

interface UserRowProps {
  user: AdminUser;
  columns: readonly Column[];
  selected: boolean;
  onSelect: (id: number, selected: boolean) => void;
  expanded: boolean;
  onToggleExpanded: (id: number) => void;
  isSelf: boolean;
  actions: RowActions;
  /** Rendered under the row while expanded. */
  details: ReactNode;
}

/** Edit User, Delete User and Ban/UnBan; the last two disabled on the admin's own row. */
export function rowMenuItems(user: AdminUser, isSelf: boolean, actions: RowActions): MenuItem[] {
  const who = user.name || user.email;
  return [
    { label: 'Edit User', srLabel: who, onSelect: () => actions.onEdit(user) },
    { label: 'Delete User', srLabel: who, onSelect: () => actions.onDelete(user), danger: true, disabledReason: isSelf ? SELF_DELETE_REFUSED : undefined },
    { label: user.is_banned ? 'UnBan' : 'Ban', srLabel: who, onSelect: () => actions.onBan(user), disabledReason: isSelf ? SELF_BAN_REFUSED : undefined },
  ];
}

export function UserRow({ user, columns, selected, onSelect, expanded, onToggleExpanded, isSelf, actions, details }: UserRowProps) {
  const banned = Boolean(user.is_banned);
  const detailsId = `admin-user-details-${user.id}`;
  const who = user.name || user.email;
  // 2 leading columns: the tick box and Actions.
  const span = columns.length + 2;
  return (
    <>
      <tr className={banned ? 'admin-users__row admin-users__row--banned' : 'admin-users__row'} data-user-id={user.id}>
        <td className="admin-users__select">
          <input type="checkbox" checked={selected} onChange={(event) => onSelect(user.id, event.target.checked)} aria-label={`Select ${who} for a mailing`} />
        </td>
        <td className="admin-users__actions">
          <div className="admin-users__buttons">
            {banned && <span className="admin-badge admin-badge--banned">Banned</span>}
            {isSelf && <span className="admin-badge">You</span>}
            <button
              type="button"
              className="button button--secondary button--admin-tiny"
              aria-expanded={expanded}
              aria-controls={expanded ? detailsId : undefined}
              onClick={() => onToggleExpanded(user.id)}
            >
              Details<span className="sr-only"> of {who}</span>
            </button>
            <MenuButton
              label={
                <>
                  Actions<span className="sr-only"> for {who}</span>
                </>
              }
              items={rowMenuItems(user, isSelf, actions)}
            />
          </div>
        </td>
        {columns.map((column) =>
          column.key === 'name' ? (
            <th key={column.key} scope="row" className="admin-users__cell admin-users__cell--name">
              <CellValue column={column} value={user.name} />
            </th>
          ) : (
            <td key={column.key} className={`admin-users__cell admin-users__cell--${column.kind}`}>
              <CellValue column={column} value={(user as unknown as Record<string, unknown>)[column.key]} />
            </td>
          ),
        )}
      </tr>
      {expanded && (
        <tr className="admin-users__details-row">
          <td colSpan={span}>
            <div className="admin-users__details" id={detailsId}>
              {details}
            </div>
          </td>
        </tr>
      )}
    </>
  );
}
