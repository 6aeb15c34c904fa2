// Below the admin's license table, one block per license (issue 12, item 7): the key with Copy, the
// machines (the admin deactivates any, after a confirmation) and the History disclosure.
import { useRef } from 'react';
import { deactivateLicenseMachine, type License } from '../../lib/api/admin.ts';
import { LicenseKey } from '../dashboard/LicenseKey.tsx';
import { MachineList, machineLabel, type MachineItem } from '../dashboard/MachineList.tsx';
import type { FormMessage } from '../ui/form-errors.ts';
import { serverMessage } from '../ui/form-errors.ts';
import type { Confirm } from '../ui/use-confirm.tsx';
import { LicenseHistory } from './LicenseHistory.tsx';
import { historyDate } from '../../../common/license-history.ts';

interface LicenseDetailsProps {
  license: License;
  ownerName: string;
  confirm: Confirm;
  onLicense: (license: License) => void;
  onMessage: (message: FormMessage) => void;
}

export function LicenseDetails({ license, ownerName, confirm, onLicense, onMessage }: LicenseDetailsProps) {
  const typeName = license.license_type?.name ?? 'unknown type';
  // The pressed Deactivate button leaves with its machine: focus goes to the license's heading.
  const heading = useRef<HTMLHeadingElement>(null);

  const deactivate = async (machine: MachineItem) => {
    const label = machineLabel(machine);
    const ok = await confirm({
      title: 'Deactivate Machine',
      message: `Deactivate ${label} on license #${license.id} of ${ownerName}? The software on it stops working with this license at its next check.`,
      confirmLabel: 'Deactivate',
    });
    if (!ok) return;
    try {
      await deactivateLicenseMachine(license.id, machine.id);
      onLicense({ ...license, machines: license.machines.filter((item) => item.id !== machine.id) });
      onMessage({ text: `${label} deactivated (license #${license.id}).`, tone: 'success' });
      heading.current?.focus();
    } catch (error) {
      onMessage({ text: serverMessage(error), tone: 'error' });
    }
  };

  return (
    <section className="admin-license" aria-label={`License #${license.id} details`}>
      <h4 className="admin-license__title" ref={heading} tabIndex={-1}>
        License #{license.id} ({typeName}): {license.status.text}
      </h4>
      <dl className="details-list">
        <dt>Key</dt>
        <dd>
          <LicenseKey value={license.key} />
        </dd>
        <dt>Entitlements</dt>
        <dd>{license.entitlements.length > 0 ? license.entitlements.join(', ') : 'None'}</dd>
        <dt>Updates until</dt>
        <dd>{license.maintenance_until ? historyDate(license.maintenance_until) : 'No limit'}</dd>
        <dt>{license.floating === 1 ? 'Seats' : 'Machines'}</dt>
        <dd>
          <MachineList
            machines={license.machines}
            maxMachines={license.max_machines}
            floating={license.floating === 1}
            onDeactivate={(machine) => void deactivate(machine)}
            showFingerprint
          />
        </dd>
      </dl>
      <LicenseHistory licenseId={license.id} />
    </section>
  );
}
