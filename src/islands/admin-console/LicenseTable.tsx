// The admin's table of a user's licenses (docs/product/admin.md#licenses; issue 12, item 7): ID, type, Active,
// Activated at, Expiry (days), Expire date, the status in words, the machines against the limit, and Edit,
// Suspend/Unsuspend and Delete. The Actions column is pinned at the right edge of the scrolling table, so the
// buttons stay in the card however narrow it is.
import type { License } from '../../lib/api/admin.ts';
import { YesNo } from '../dashboard/YesNo.tsx';
import { LicenseStatus } from '../dashboard/LicenseCard.tsx';
import { formatAdminDate } from './dates.ts';
import { TableScroll } from '../ui/TableScroll.tsx';

function DateCell({ value }: { value: string | null }) {
  const text = formatAdminDate(value, true);
  return text && value ? <time dateTime={value}>{text}</time> : <>N/A</>;
}

interface LicenseTableProps {
  licenses: readonly License[];
  onEdit: (license: License) => void;
  onSuspend: (license: License, suspended: boolean) => void;
  onDelete: (license: License) => void;
}

const TINY = 'button button--secondary button--admin-tiny';

function Actions({ license, onEdit, onSuspend, onDelete }: Omit<LicenseTableProps, 'licenses'> & { license: License }) {
  const suspended = license.suspended === 1;
  return (
    <div className="admin-table__buttons">
      <button type="button" className={TINY} aria-haspopup="dialog" onClick={() => onEdit(license)}>
        Edit<span className="sr-only"> license #{license.id}</span>
      </button>
      <button type="button" className={TINY} aria-haspopup={suspended ? undefined : 'dialog'} onClick={() => onSuspend(license, !suspended)}>
        {suspended ? 'Unsuspend' : 'Suspend'}
        <span className="sr-only"> license #{license.id}</span>
      </button>
      <button type="button" className={`${TINY} button--admin-danger-outline`} aria-haspopup="dialog" onClick={() => onDelete(license)}>
        Delete<span className="sr-only"> license #{license.id}</span>
      </button>
    </div>
  );
}

export function LicenseTable({ licenses, ...actions }: LicenseTableProps) {
  return (
    <TableScroll label="Licenses table">
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">ID</th>
            <th scope="col">License Type</th>
            <th scope="col">Active</th>
            <th scope="col">Activated at</th>
            <th scope="col">Expiry (days)</th>
            <th scope="col">Expire date</th>
            <th scope="col">Status</th>
            <th scope="col">Machines</th>
            <th scope="col" className="admin-table__action">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {licenses.map((license) => (
            <tr key={license.id}>
              <td>{license.id}</td>
              <th scope="row">{license.license_type?.name ?? 'Unknown'}</th>
              <td>
                <YesNo value={license.active} />
              </td>
              <td>
                <DateCell value={license.activated_at} />
              </td>
              <td>{license.license_type?.name === 'perpetual' ? 'Never' : license.expire}</td>
              <td>
                <DateCell value={license.expire_date} />
              </td>
              <td>
                <LicenseStatus status={license.status} />
              </td>
              <td>
                {license.machines.length} / {license.max_machines}
              </td>
              <td className="admin-table__action">
                <Actions license={license} {...actions} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
