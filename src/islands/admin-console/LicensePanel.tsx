// A user's licenses on the admin screen (docs/product/admin.md#admin-screen; issue 12, item 7): the table with
// Edit, Suspend/Unsuspend and Delete per license and an Add License button, then per license its key,
// machines (deactivate any) and History. Each write's answer carries the license and the user
// (license_granted and license_request change with grants), and both go back into the screen's data.
import { useRef, useState } from 'react';
import { Message } from '../ui/Message.tsx';
import { serverMessage, type FormMessage } from '../ui/form-errors.ts';
import { deleteLicense, updateLicense, type AdminUser, type License, type LicenseAnswer, type LicenseType } from '../../lib/api/admin.ts';
import type { Confirm } from '../ui/use-confirm.tsx';
import { HARD_DELETE_WARNING } from './messages.ts';
import { LicenseDetails } from './LicenseDetails.tsx';
import { LicenseFormDialog, type LicenseFormMode } from './LicenseFormDialog.tsx';
import { LicenseTable } from './LicenseTable.tsx';

interface LicensePanelProps {
  user: AdminUser;
  licenses: readonly License[];
  types: readonly LicenseType[];
  confirm: Confirm;
  onLicense: (license: License) => void;
  onLicenseRemoved: (id: number) => void;
  onUser: (user: AdminUser) => void;
}

/** Suspend and Delete, each after its confirmation; the outcome goes to the panel's message. */
function useLicenseActions({ user, confirm, onLicense, onLicenseRemoved, onUser }: Omit<LicensePanelProps, 'licenses' | 'types'>) {
  const [message, setMessage] = useState<FormMessage | null>(null);
  const panelRef = useRef<HTMLElement>(null);
  const describe = (license: License) => `License #${license.id} (${license.license_type?.name ?? 'unknown type'}) of ${user.name}`;

  const suspend = async (license: License, suspended: boolean) => {
    if (suspended) {
      const ok = await confirm({
        title: 'Suspend License',
        message: `Suspend ${describe(license)}? The software is told SUSPENDED at its next check until you unsuspend it.`,
        confirmLabel: 'Suspend',
      });
      if (!ok) return;
    }
    setMessage(null);
    try {
      const answer = await updateLicense(license.id, { suspended: suspended ? 1 : 0 });
      onLicense(answer.license);
      onUser(answer.user);
      setMessage({ text: `${suspended ? 'License suspended.' : 'License unsuspended.'} (#${license.id})`, tone: 'success' });
    } catch (error) {
      setMessage({ text: serverMessage(error), tone: 'error' });
    }
  };

  const remove = async (license: License) => {
    const ok = await confirm({ title: 'Delete License', message: HARD_DELETE_WARNING, detail: <p>{describe(license)}</p>, confirmLabel: 'Delete License' });
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

  return { message, setMessage, panelRef, suspend, remove };
}

export function LicensePanel(props: LicensePanelProps) {
  const { user, licenses, types, confirm, onLicense, onUser } = props;
  const [mode, setMode] = useState<LicenseFormMode | null>(null);
  const { message, setMessage, panelRef, suspend, remove } = useLicenseActions(props);
  const headingId = `admin-licenses-${user.id}`;

  const saved = (answer: LicenseAnswer) => {
    onLicense(answer.license);
    onUser(answer.user);
    setMode(null);
    // A grant whose mail failed is worth a second look: the user does not know yet.
    setMessage({ text: answer.message, tone: answer.granted && answer.mail_sent === false ? 'info' : 'success' });
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
        <>
          <LicenseTable
            licenses={licenses}
            onEdit={(license) => setMode({ kind: 'update', license })}
            onSuspend={(license, suspended) => void suspend(license, suspended)}
            onDelete={(license) => void remove(license)}
          />
          {licenses.map((license) => (
            <LicenseDetails key={license.id} license={license} ownerName={user.name} confirm={confirm} onLicense={onLicense} onMessage={setMessage} />
          ))}
        </>
      )}
      <LicenseFormDialog mode={mode} user={user} types={types} onSaved={saved} onCancel={() => setMode(null)} />
    </section>
  );
}
