// A user's licenses on the admin screen (docs/product/admin.md#admin-screen): a table with Edit and Delete per license and an
// Add License button. Each write's answer carries the license and the user (license_granted and
// license_request change with grants), and both go back into the screen's data.
import { useRef, useState } from 'react';
import { formatAdminDate } from './dates.ts';
import { YesNo } from '../users/YesNo.tsx';
import { Message } from '../ui/Message.tsx';
import { serverMessage, type FormMessage } from '../ui/form-errors.ts';
import { deleteLicense, type AdminUser, type License, type LicenseAnswer, type LicenseType } from '../../lib/api/admin.ts';
import type { Confirm } from '../ui/use-confirm.tsx';
import { HARD_DELETE_WARNING } from './messages.ts';
import { LicenseFormDialog, type LicenseFormMode } from './LicenseFormDialog.tsx';

function DateCell({ value }: { value: string | null }) {
  const text = formatAdminDate(value, true);
  return text && value ? <time dateTime={value}>{text}</time> : <>N/A</>;
}

interface LicensePanelProps {
  user: AdminUser;
  licenses: readonly License[];
  types: readonly LicenseType[];
  confirm: Confirm;
  onLicense: (license: License) => void;
  onLicenseRemoved: (id: number) => void;
  onUser: (user: AdminUser) => void;
}

interface LicenseTableProps {
  licenses: readonly License[];
  onEdit: (license: License) => void;
  onDelete: (license: License) => void;
}

function LicenseTable({ licenses, onEdit, onDelete }: LicenseTableProps) {
  return (
    <div className="table-scroll">
      <table className="admin-table">
        <thead>
          <tr>
            <th scope="col">ID</th>
            <th scope="col">License Type</th>
            <th scope="col">Active</th>
            <th scope="col">Activated at</th>
            <th scope="col">Expiry (days)</th>
            <th scope="col">Expire date</th>
            <th scope="col">Actions</th>
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
                <div className="admin-table__buttons">
                  <button type="button" className="button button--secondary button--admin-tiny" aria-haspopup="dialog" onClick={() => onEdit(license)}>
                    Edit<span className="sr-only"> license #{license.id}</span>
                  </button>
                  <button
                    type="button"
                    className="button button--secondary button--admin-tiny button--admin-danger-outline"
                    aria-haspopup="dialog"
                    onClick={() => onDelete(license)}
                  >
                    Delete<span className="sr-only"> license #{license.id}</span>
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function LicensePanel({ user, licenses, types, confirm, onLicense, onLicenseRemoved, onUser }: LicensePanelProps) {
  const [mode, setMode] = useState<LicenseFormMode | null>(null);
  const [message, setMessage] = useState<FormMessage | null>(null);
  const headingId = `admin-licenses-${user.id}`;
  const panelRef = useRef<HTMLElement>(null);

  const saved = (answer: LicenseAnswer) => {
    onLicense(answer.license);
    onUser(answer.user);
    setMode(null);
    // A grant whose mail failed is worth a second look: the user does not know yet.
    setMessage({ text: answer.message, tone: answer.granted && answer.mail_sent === false ? 'info' : 'success' });
  };

  const remove = async (license: License) => {
    const ok = await confirm({
      title: 'Delete License',
      message: HARD_DELETE_WARNING,
      detail: (
        <p>
          License #{license.id} ({license.license_type?.name ?? 'unknown type'}) of {user.name}
        </p>
      ),
      confirmLabel: 'Delete License',
    });
    if (!ok) return;
    setMessage(null);
    try {
      const answer = await deleteLicense(license.id);
      onLicenseRemoved(license.id);
      if (answer.user) onUser(answer.user);
      setMessage({ text: answer.message, tone: 'success' });
      // The Delete button that had focus is gone with its row.
      panelRef.current?.focus();
    } catch (error) {
      setMessage({ text: serverMessage(error), tone: 'error' });
    }
  };

  return (
    <section className="admin-licenses" aria-labelledby={headingId} ref={panelRef} tabIndex={-1}>
      <div className="admin-licenses__head">
        <h3 id={headingId} className="admin-licenses__title">
          Licenses of {user.name}
        </h3>
        <button type="button" className="button button--small" aria-haspopup="dialog" onClick={() => setMode({ kind: 'add' })}>
          Add License
        </button>
      </div>
      <Message message={message} />
      {licenses.length === 0 ? (
        <p className="empty-note">No licenses.</p>
      ) : (
        <LicenseTable licenses={licenses} onEdit={(license) => setMode({ kind: 'update', license })} onDelete={(license) => void remove(license)} />
      )}
      <LicenseFormDialog mode={mode} user={user} types={types} onSaved={saved} onCancel={() => setMode(null)} />
    </section>
  );
}
