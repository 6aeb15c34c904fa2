// A license card (docs/product/accounts.md#dashboard; issue 12, item 6): the status in words, the key with
// a Copy button, type, Active YES/NO, Activated at (or N/A), Expire date, the machines with Deactivate,
// and "Download license file" for an offline machine. The owner's calls go through src/lib/api/account.ts;
// after any change the dashboard reloads the session, whose licenses carry the machines. Issue 24: the
// edition's features (entitlements) and how long updates are included, a floating license's seats in use
// with each lease's end, and the license's history in words (the same as the admin's).
import { useRef, useState } from 'react';
import { deactivateMachine, listOwnLicenseEvents } from '../../lib/api/account.ts';
import { historyDate } from '../../../common/license-history.ts';
import { licenseTypeLabel } from '../../../common/license-type-label.ts';
import { LicenseHistory } from '../ui/LicenseHistory.tsx';
import { formatDate } from '../../lib/format.ts';
import type { LicenseView } from '../../stores/session.ts';
import { serverMessage, type FormMessage } from '../ui/form-errors.ts';
import { Message } from '../ui/Message.tsx';
import type { Confirm } from '../ui/use-confirm.tsx';
import { LicenseFileForm } from './LicenseFileForm.tsx';
import { LicenseKey } from './LicenseKey.tsx';
import { MachineList, machineLabel, type MachineItem } from './MachineList.tsx';
import { YesNo } from './YesNo.tsx';

function DateValue({ value, withTime = false }: { value: string | null; withTime?: boolean }) {
  const text = formatDate(value, withTime);
  return text && value ? <time dateTime={value}>{text}</time> : <>N/A</>;
}

export function LicenseStatus({ status }: { status: Pick<LicenseView['status'], 'text'> & { code: string } }) {
  return <span className={`license-status license-status--${status.code.toLowerCase().replace('_', '-')}`}>{status.text}</span>;
}

interface LicenseCardProps {
  license: LicenseView;
  confirm: Confirm;
  /** Reloads the user's licenses after a machine changed. */
  onChanged: () => Promise<void>;
}

export function LicenseCard({ license, confirm, onChanged }: LicenseCardProps) {
  const typeName = license.license_type ? licenseTypeLabel(license.license_type.name) : 'Unknown';
  // One notice at a time, beside the action it answers (issue 28, 2.6): a download takes the
  // deactivation's notice away, and a deactivation the download's (the form's message, by this count).
  const [message, setMessage] = useState<FormMessage | null>(null);
  const [deactivations, setDeactivations] = useState(0);
  // The pressed Deactivate button leaves with its machine: focus goes to the list's heading.
  const machinesHeading = useRef<HTMLHeadingElement>(null);

  const deactivate = async (machine: MachineItem) => {
    const label = machineLabel(machine);
    const ok = await confirm({
      title: 'Deactivate Machine',
      message: `Deactivate ${label}? The software on it stops working with this license; its seat is free for another machine.`,
      confirmLabel: 'Deactivate',
      danger: true,
    });
    if (!ok) return;
    setMessage(null);
    try {
      await deactivateMachine(license.id, machine.id);
      await onChanged();
      setMessage({ text: `${label} deactivated.`, tone: 'success' });
      setDeactivations((count) => count + 1);
      machinesHeading.current?.focus();
    } catch (error) {
      setMessage({ text: serverMessage(error), tone: 'error' });
    }
  };

  return (
    <article className="card license-card" aria-label={`License: ${typeName}`}>
      <p className="license-card__status">
        <LicenseStatus status={license.status} />
      </p>
      <dl className="details-list">
        <dt>License Key</dt>
        <dd>
          <LicenseKey value={license.key} />
        </dd>
        <dt>License Type</dt>
        <dd className="license-card__type">{typeName}</dd>
        <dt>Active</dt>
        <dd>
          <YesNo value={license.active} />
        </dd>
        <dt>Activated at</dt>
        <dd>
          <DateValue value={license.activated_at} withTime />
        </dd>
        <dt>Expire date</dt>
        <dd>
          <DateValue value={license.expire_date} />
        </dd>
        <dt>Features</dt>
        <dd className="license-card__features">{license.entitlements.length > 0 ? license.entitlements.join(', ') : 'Standard'}</dd>
        <dt>Updates until</dt>
        <dd>{license.maintenance_until ? <time dateTime={license.maintenance_until}>{historyDate(license.maintenance_until)}</time> : 'No limit'}</dd>
      </dl>
      <section className="license-card__machines" aria-label={`Machines of license ${license.key ?? license.id}`}>
        <h3 className="license-card__subheading" ref={machinesHeading} tabIndex={-1}>
          {license.floating === 1 ? 'Seats' : 'Machines'}
        </h3>
        <MachineList
          machines={license.machines}
          maxMachines={license.max_machines}
          floating={license.floating === 1}
          onDeactivate={(machine) => void deactivate(machine)}
        />
        <Message message={message} />
      </section>
      <LicenseHistory load={() => listOwnLicenseEvents(license.id)} />
      {license.status.code === 'VALID' && (
        <LicenseFileForm
          licenseId={license.id}
          licenseKey={license.key}
          onDownloaded={async () => {
            setMessage(null);
            await onChanged();
          }}
          dismissKey={deactivations}
        />
      )}
    </article>
  );
}
